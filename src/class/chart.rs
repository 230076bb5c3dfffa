//! Inline SVG charts for class.html: the score histogram and pass-rate bars. Hovering
//! shows the exact numbers through SVG `<title>`, so the page needs no script.

use super::html::{band, esc, percent, FAIR, GOOD};
use super::Scores;
use std::fmt::Write;

const WIDTH: f64 = 900.0;

/// One bar per score, placed along 0..=`max_score` so that gaps between scores show.
pub fn distribution(scores: &Scores, max_score: u32) -> String {
    let (left, right, top, bottom, height) = (44.0, 16.0, 20.0, 30.0, 230.0);
    let (plot_w, plot_h) = (WIDTH - left - right, height - top - bottom);
    let top_score = scores.max.unwrap_or(0).max(max_score);
    let top_count = scores.distribution.iter().map(|d| d.count).max().unwrap_or(1);
    let slot = plot_w / f64::from(top_score + 1);
    let bar_w = (slot * 0.8).clamp(1.0, 48.0);
    let base = top + plot_h;
    let x_of = |score: u32| left + f64::from(score) * slot + slot / 2.0;
    let mut out = svg_open(height, "Number of submissions per total score");
    let _ = write!(
        out,
        r#"<line class="grid" x1="{left}" y1="{top}" x2="{x2}" y2="{top}"/><text x="{lx}" y="{ty}" text-anchor="end">{top_count}</text><line class="axis" x1="{left}" y1="{base}" x2="{x2}" y2="{base}"/>"#,
        x2 = WIDTH - right,
        lx = left - 6.0,
        ty = top + 4.0,
    );
    let xs: Vec<f64> = scores.distribution.iter().map(|d| x_of(d.score)).collect();
    let counted = spaced(&xs, 18.0);
    for (d, (&x, labelled)) in scores.distribution.iter().zip(xs.iter().zip(counted)) {
        let h = (d.count as f64 / top_count as f64 * plot_h).max(1.0);
        let _ = write!(
            out,
            r#"<rect class="bar" data-score="{s}" data-count="{c}" x="{bx:.1}" y="{by:.1}" width="{bar_w:.1}" height="{h:.1}"><title>score {s}: {c} submission{plural}</title></rect>"#,
            s = d.score,
            c = d.count,
            bx = x - bar_w / 2.0,
            by = base - h,
            plural = if d.count == 1 { "" } else { "s" },
        );
        if labelled {
            let _ = write!(out, r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#, base - h - 4.0, d.count);
        }
    }
    // The scores that were reached, then the ends of the scale, as far as they fit.
    let mut ticks: Vec<u32> = scores.distribution.iter().map(|d| d.score).collect();
    ticks.extend([0, top_score]);
    ticks.sort_unstable();
    ticks.dedup();
    let xs: Vec<f64> = ticks.iter().map(|&t| x_of(t)).collect();
    for ((t, x), shown) in ticks.iter().zip(&xs).zip(spaced(&xs, 28.0)) {
        if shown {
            let _ = write!(out, r#"<text class="muted" x="{x:.1}" y="{:.1}" text-anchor="middle">{t}</text>"#, base + 18.0);
        }
    }
    out + "</svg>"
}

/// A pass rate to draw: the label on the left, the exact numbers in the hover text.
pub struct RateBar {
    pub label: String,
    pub tip: String,
    pub rate: Option<f64>,
}

/// One horizontal bar per row, coloured by band; a null rate is said, not drawn.
pub fn rates(bars: &[RateBar], label: &str) -> String {
    let (label_w, row, bar_h, foot) = (300.0, 24.0, 16.0, 22.0);
    let (x0, bar_max) = (label_w + 10.0, WIDTH - label_w - 10.0 - 70.0);
    let height = bars.len() as f64 * row + foot;
    let plot_bottom = height - foot;
    let mut out = svg_open(height, label);
    for at in [0.0, FAIR, GOOD, 1.0] {
        let x = x0 + at * bar_max;
        let _ = write!(
            out,
            r#"<line class="grid" x1="{x:.1}" y1="0" x2="{x:.1}" y2="{plot_bottom}"/><text class="muted" x="{x:.1}" y="{:.1}" text-anchor="middle">{:.0}%</text>"#,
            height - 6.0,
            at * 100.0,
        );
    }
    for (i, b) in bars.iter().enumerate() {
        let y = i as f64 * row;
        let mid = y + row / 2.0 + 4.0;
        let _ = write!(
            out,
            r#"<g><title>{}</title><text x="{label_w}" y="{mid:.1}" text-anchor="end">{}</text>"#,
            esc(&b.tip),
            esc(&cut(&b.label, 40)),
        );
        match b.rate {
            Some(r) => {
                let w = (r * bar_max).max(1.0);
                let _ = write!(
                    out,
                    r#"<rect class="{}" x="{x0}" y="{:.1}" width="{w:.1}" height="{bar_h}" rx="2"/><text x="{:.1}" y="{mid:.1}">{}</text>"#,
                    band(b.rate),
                    y + (row - bar_h) / 2.0,
                    x0 + w + 6.0,
                    percent(b.rate),
                );
            }
            None => {
                let _ = write!(out, r#"<text class="muted" x="{:.1}" y="{mid:.1}">not graded</text>"#, x0 + 6.0);
            }
        }
        out.push_str("</g>");
    }
    out + "</svg>"
}

fn svg_open(height: f64, label: &str) -> String {
    format!(r#"<svg viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{}">"#, esc(label))
}

/// Which of these ascending positions get a label, left to right, each at least `gap`
/// from the last one labelled.
fn spaced(xs: &[f64], gap: f64) -> Vec<bool> {
    let mut last = f64::NEG_INFINITY;
    xs.iter()
        .map(|&x| {
            let room = x - last >= gap;
            if room {
                last = x;
            }
            room
        })
        .collect()
}

/// At most `max` characters, marking the cut; the full text is in the hover title.
fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_keep_their_distance() {
        assert_eq!(spaced(&[0.0, 10.0, 30.0, 40.0, 61.0], 20.0), [true, false, true, false, true]);
    }

    #[test]
    fn cuts_long_labels_on_characters() {
        assert_eq!(cut("ééé", 2), "éé…");
        assert_eq!(cut("ab", 2), "ab");
    }
}
