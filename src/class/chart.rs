//! Charts for class.html: the score histogram as inline SVG, and rate bars as HTML (so
//! that a long title wraps rather than being cut). Hovering shows exact numbers through
//! `<title>`; the page needs no script.

use super::html::{esc, percent};
use super::Scores;
use std::fmt::Write;

const WIDTH: f64 = 900.0;
/// Bars in the histogram at most; more distinct scores share a bar.
const MAX_BARS: u32 = 30;

/// The scores along an axis that fits them (from just below the lowest to the maximum
/// score), a bar per score or, over a wide range, per range of scores; every bar has its
/// count on it.
pub fn distribution(scores: &Scores, max_score: u32) -> String {
    let (left, right, top, bottom, height) = (44.0, 16.0, 24.0, 30.0, 230.0);
    let (plot_w, plot_h) = (WIDTH - left - right, height - top - bottom);
    let (lo, hi) = axis(scores, max_score);
    let width = (hi - lo + 1).div_ceil(MAX_BARS);
    let bins = (hi - lo) / width + 1;
    let mut counts = vec![0usize; bins as usize];
    for d in &scores.distribution {
        counts[((d.score.clamp(lo, hi) - lo) / width) as usize] += d.count;
    }
    let top_count = counts.iter().copied().max().unwrap_or(1).max(1);
    let slot = plot_w / f64::from(bins);
    let bar_w = (slot * 0.8).clamp(1.0, 48.0);
    let base = top + plot_h;
    let x_of = |bin: u32| left + f64::from(bin) * slot + slot / 2.0;
    let mut out = svg_open(height, "Number of submissions per total score");
    let _ = write!(
        out,
        r#"<line class="grid" x1="{left}" y1="{top}" x2="{x2}" y2="{top}"/><text x="{lx}" y="{ty}" text-anchor="end">{top_count}</text><line class="axis" x1="{left}" y1="{base}" x2="{x2}" y2="{base}"/>"#,
        x2 = WIDTH - right,
        lx = left - 6.0,
        ty = top + 4.0,
    );
    for (bin, &count) in (0..bins).zip(&counts) {
        if count == 0 {
            continue;
        }
        let (from, to) = (lo + bin * width, (lo + bin * width + width - 1).min(hi));
        let (x, h) = (x_of(bin), (count as f64 / top_count as f64 * plot_h).max(1.0));
        let (data, scores_said) = if from == to {
            (format!(r#"data-score="{from}""#), format!("score {from}"))
        } else {
            (format!(r#"data-from="{from}" data-to="{to}""#), format!("scores {from} to {to}"))
        };
        let _ = write!(
            out,
            r#"<rect class="bar" {data} data-count="{count}" x="{bx:.1}" y="{by:.1}" width="{bar_w:.1}" height="{h:.1}"><title>{scores_said}: {count} submission{plural}</title></rect><text class="count" x="{x:.1}" y="{ly:.1}" text-anchor="middle">{count}</text>"#,
            bx = x - bar_w / 2.0,
            by = base - h,
            ly = base - h - 4.0,
            plural = if count == 1 { "" } else { "s" },
        );
    }
    // The ends of the axis and the first score of every bar, as far as they fit.
    let x_at = |score: u32| left + (f64::from(score - lo) + 0.5) / f64::from(width) * slot;
    let mut ticks: Vec<u32> = (0..bins).filter(|&b| counts[b as usize] > 0).map(|b| lo + b * width).collect();
    ticks.extend([lo, hi]);
    ticks.sort_unstable();
    ticks.dedup();
    let xs: Vec<f64> = ticks.iter().map(|&t| x_at(t)).collect();
    for ((t, x), shown) in ticks.iter().zip(&xs).zip(spaced(&xs, 28.0)) {
        if shown {
            let _ = write!(out, r#"<text class="muted" x="{x:.1}" y="{:.1}" text-anchor="middle">{t}</text>"#, base + 18.0);
        }
    }
    out + "</svg>"
}

/// The axis's lowest and highest score: from a little below the lowest score reached
/// (a tenth of the range, at least one point), to the maximum score.
pub fn axis(scores: &Scores, max_score: u32) -> (u32, u32) {
    let hi = scores.max.unwrap_or(0).max(max_score);
    let low = scores.min.unwrap_or(0);
    let pad = ((hi - low) / 10).max(1);
    (low.saturating_sub(pad), hi.max(1))
}

/// A rate to draw: the label, shown whole, the exact numbers in the hover text.
pub struct RateBar {
    pub label: String,
    pub tip: String,
    pub rate: Option<f64>,
    /// The CSS class of its colour (see `html::band`).
    pub band: &'static str,
}

/// A table of bars, one per row; a null rate is said, not drawn.
pub fn rates(bars: &[RateBar], label: &str, head: &str) -> String {
    let mut out = format!(
        "<table class=\"rates\" aria-label=\"{}\"><thead><tr><th>{}</th><th class=\"meter-col\">{}</th></tr></thead><tbody>\n",
        esc(label),
        esc(head),
        esc(label)
    );
    for b in bars {
        let bar = match b.rate {
            Some(r) => format!(
                "<div class=\"meter\"><span class=\"{}\" style=\"width:{:.1}%\"></span></div><span class=\"pct\">{}</span>",
                b.band,
                (r * 100.0).max(0.5),
                percent(b.rate)
            ),
            None => "<span class=\"muted\">not graded</span>".to_string(),
        };
        let _ = writeln!(out, "<tr title=\"{}\"><td class=\"label\">{}</td><td class=\"meter-col\">{bar}</td></tr>", esc(&b.tip), esc(&b.label));
    }
    out + "</tbody></table>"
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::ScoreCount;

    #[test]
    fn labels_keep_their_distance() {
        assert_eq!(spaced(&[0.0, 10.0, 30.0, 40.0, 61.0], 20.0), [true, false, true, false, true]);
    }

    fn scores(list: &[(u32, usize)]) -> Scores {
        Scores {
            mean: None,
            median: None,
            min: list.first().map(|s| s.0),
            max: list.last().map(|s| s.0),
            distribution: list.iter().map(|&(score, count)| ScoreCount { score, count }).collect(),
        }
    }

    #[test]
    fn the_axis_fits_the_scores() {
        assert_eq!(axis(&scores(&[(83, 2), (91, 5)]), 91), (82, 91));
        assert_eq!(axis(&scores(&[(0, 1), (91, 5)]), 91), (0, 91));
        assert_eq!(axis(&scores(&[(40, 1), (60, 5)]), 91), (35, 91));
        assert_eq!(axis(&scores(&[]), 0), (0, 1));
    }

    #[test]
    fn every_bar_has_its_count() {
        let s = scores(&[(83, 2), (85, 1), (91, 12)]);
        let svg = distribution(&s, 91);
        for (score, count) in [(83, 2), (85, 1), (91, 12)] {
            assert!(svg.contains(&format!(r#"data-score="{score}" data-count="{count}""#)), "{svg}");
            assert!(svg.contains(&format!(r#"text-anchor="middle">{count}</text>"#)), "{svg}");
        }
        // 92 possible scores share 30 bars at most; the counts still add up.
        let wide = scores(&(0..92).map(|s| (s, 1)).collect::<Vec<_>>());
        let svg = distribution(&wide, 91);
        let counts: Vec<usize> = regex::Regex::new(r#"data-count="(\d+)""#).unwrap().captures_iter(&svg).map(|c| c[1].parse().unwrap()).collect();
        assert!(counts.len() <= MAX_BARS as usize, "{}", counts.len());
        assert_eq!(counts.iter().sum::<usize>(), 92);
        assert_eq!(svg.matches("class=\"count\"").count(), counts.len());
    }
}
