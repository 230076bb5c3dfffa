//! Class statistics after a batch: pass rates per check and step, the score
//! distribution, and the most common wrong values; written as JSON, CSV and HTML.
