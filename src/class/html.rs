//! class.html: one self-contained page for the instructor (inline CSS and SVG, no
//! script, nothing fetched). Numbers can be read back: rows are `tr[data-step=N]`,
//! `tr[data-check=ID]` (in `table[data-checks-of=STEP]`), `tr[data-score=N]` and
//! `tr[data-submission=NAME]`, the summary is `dl.summary dd[data-field]`; an element's
//! `data-field` is its class.json field, and a number's `data-value` is the JSON number
//! (absent when null) whatever the text shows. Wrong values are
//! `li[data-value][data-count]` in the `wrong_values` cell, in order. The checks that
//! failed most are `#most-failed tr[data-failed-check=ID]`, those the grader could not
//! evaluate `#grader-errors tr[data-error-check=ID]`.

use super::chart::{self, RateBar};
use super::{CheckStats, ClassStats};
use std::fmt::{Display, Write};

/// Pass rates from `GOOD` up are good, from `FAIR` up fair, and below that poor.
pub const GOOD: f64 = 0.8;
pub const FAIR: f64 = 0.5;

const STYLE: &str = r#"
:root { --ink: #1f2933; --muted: #66727f; --line: #e3e7eb; --bg: #f6f7f9; --bar: #4a78b8;
  --good: #2f8f46; --fair: #d99a00; --poor: #c8372d; --none: #9aa3ad; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
header, main, footer { max-width: 1040px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 28px; }
h1 { margin: 0; font-size: 26px; }
h1 .title { display: block; font-size: 17px; font-weight: normal; color: var(--muted); }
h2 { margin: 0 0 14px; font-size: 19px; }
h3 { margin: 26px 0 8px; font-size: 16px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 20px 24px; margin: 20px 0; }
dl.summary { display: flex; flex-wrap: wrap; gap: 12px; margin: 18px 0 0; }
dl.summary div { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 8px 18px; min-width: 120px; }
dt { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
dd { margin: 0; font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); font-weight: 600; }
tbody tr:hover { background: #fafbfc; }
.n { text-align: right; white-space: nowrap; }
td.rate { font-weight: 600; }
td.good, .badge.good { color: var(--good); } td.fair, .badge.fair { color: #9a6b00; }
td.poor, .badge.poor { color: var(--poor); } td.none, .badge.none { color: var(--none); }
.badge { font-size: 13px; font-weight: 600; margin-left: 8px; }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f0f2f5;
  padding: 1px 5px; border-radius: 4px; }
.wrong { width: 32%; } .values code { overflow-wrap: anywhere; }
div.muted { font-size: 13px; margin-top: 2px; }
ol.values { margin: 0; padding: 0; list-style: none; }
ol.values li { margin: 1px 0; }
.times { color: var(--muted); font-size: 13px; margin-left: 6px; white-space: nowrap; }
.muted, em { color: var(--muted); }
.legend { font-size: 13px; color: var(--muted); margin: 4px 0 12px; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin: 0 4px 0 12px; }
svg { display: block; width: 100%; height: auto; }
svg text { font-size: 12px; fill: var(--ink); font-family: inherit; }
svg text.muted { fill: var(--muted); }
svg .axis { stroke: #9aa3ad; } svg .grid { stroke: var(--line); stroke-dasharray: 3 3; }
svg .bar { fill: var(--bar); }
svg .good, .swatch.good { fill: var(--good); background: var(--good); }
svg .fair, .swatch.fair { fill: var(--fair); background: var(--fair); }
svg .poor, .swatch.poor { fill: var(--poor); background: var(--poor); }
details summary { cursor: pointer; font-weight: 600; }
table.rates td.label { width: 45%; }
table.rates th.meter-col, table.rates td.meter-col { width: 55%; white-space: nowrap; }
.meter { display: inline-block; vertical-align: middle; width: calc(100% - 64px); height: 14px; background: #eef1f4; border-radius: 3px; }
.meter span { display: block; height: 100%; border-radius: 3px; }
.meter .good { background: var(--good); } .meter .fair { background: var(--fair); } .meter .poor { background: var(--poor); }
.pct { display: inline-block; width: 58px; text-align: right; font-weight: 600; font-variant-numeric: tabular-nums; }
svg text.count { font-size: 11px; }
section.errors { border-color: #e8c36a; background: #fffbf0; }
footer { color: var(--muted); font-size: 13px; padding-bottom: 32px; }
"#;

pub fn render(s: &ClassStats) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}: class statistics</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(&s.lab),
    );
    header(&mut out, s);
    out.push_str("<main>\n");
    if s.submissions == 0 {
        out.push_str("<section><p class=\"muted\">No submissions.</p></section>\n");
    } else {
        distribution(&mut out, s);
        rates(&mut out, s);
        grader_errors(&mut out, s);
        steps(&mut out, s);
        checks(&mut out, s);
        submissions(&mut out, s);
    }
    out.push_str(
        "</main>\n<footer>Made by labcheck. A pass rate is passed / (passed + failed): a skipped check \
         was not graded, and a check the grader could not evaluate is the grader's problem, not a \
         student's failure. A wrong value is what a failed check found in a student's file.</footer>\n</body>\n</html>\n",
    );
    out
}

fn header(out: &mut String, s: &ClassStats) {
    let _ = write!(out, "<header>\n<h1>{}<span class=\"title\">{}</span></h1>\n<dl class=\"summary\">\n", esc(&s.lab), esc(&s.title));
    let items = [
        ("Submissions", number("dd", "submissions", Some(s.submissions))),
        ("Max score", number("dd", "max_score", Some(s.max_score))),
        ("Mean", number("dd", "mean", s.scores.mean)),
        ("Median", number("dd", "median", s.scores.median)),
        ("Min", number("dd", "min", s.scores.min)),
        ("Max", number("dd", "max", s.scores.max)),
        // A run of some steps (`--step`) is about those alone: said where it is read.
        ("Steps graded", cell("dd", "", "steps_graded", None, &esc(&step_ranges(s.steps.iter().map(|st| st.step))))),
    ];
    for (name, dd) in items {
        let _ = writeln!(out, "<div><dt>{name}</dt> {dd}</div>");
    }
    if !s.left_out.is_empty() {
        let said: Vec<String> = s.left_out.iter().map(|l| format!("<span data-name=\"{}\">{} ({})</span>", esc(&l.name), esc(&l.name), esc(l.why))).collect();
        let _ = writeln!(out, "<div class=\"left-out\"><dt>Left out, not graded</dt> <dd data-field=\"left_out\">{}</dd></div>", said.join(", "));
    }
    out.push_str("</dl>\n</header>\n");
}

/// `0, 1, 2, 4` as `0–2, 4`.
fn step_ranges(steps: impl Iterator<Item = u32>) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for n in steps {
        match runs.last_mut() {
            Some((_, end)) if end.checked_add(1) == Some(n) => *end = n,
            _ => runs.push((n, n)),
        }
    }
    let said: Vec<String> = runs.iter().map(|(a, b)| if a == b { a.to_string() } else { format!("{a}–{b}") }).collect();
    said.join(", ")
}

fn distribution(out: &mut String, s: &ClassStats) {
    let _ = write!(out, "<section id=\"distribution\">\n<h2>Score distribution</h2>\n{}\n", chart::distribution(&s.scores, s.max_score));
    table_head(out, "Submissions per score", &[("Score", "n"), ("Submissions", "n")]);
    for d in &s.scores.distribution {
        let _ = writeln!(out, "<tr data-score=\"{}\">{}{}</tr>", d.score, number("td", "score", Some(d.score)), number("td", "count", Some(d.count)));
    }
    out.push_str("</tbody></table></details>\n</section>\n");
}

/// Checks listed in "failed most".
const MOST_FAILED: usize = 15;

fn rates(out: &mut String, s: &ClassStats) {
    let steps: Vec<RateBar> = s
        .steps
        .iter()
        .map(|st| RateBar {
            label: step_name(st.step, &st.title),
            tip: format!("{} of {} graded checks passed", st.passed, st.graded),
            rate: st.pass_rate,
            band: band(st.pass_rate),
        })
        .collect();
    let (good, fair) = (format!("{:.0}%", GOOD * 100.0), format!("{:.0}%", FAIR * 100.0));
    let legend = format!(
        "<p class=\"legend\">Pass rate:<span class=\"swatch good\"></span>{good} and up\
         <span class=\"swatch fair\"></span>{fair} to {good}<span class=\"swatch poor\"></span>below {fair}</p>"
    );
    let _ = write!(out, "<section id=\"rates\">\n<h2>Check pass rate per step</h2>\n{legend}\n{}\n</section>\n", chart::rates(&steps, "Pass rate", "Step"));
    // The checks students failed most: by failures, then by the lowest pass rate.
    let mut failed: Vec<&CheckStats> = s.checks.iter().filter(|c| c.failed > 0).collect();
    failed.sort_by(|a, b| b.failed.cmp(&a.failed).then(a.pass_rate.unwrap_or(0.0).total_cmp(&b.pass_rate.unwrap_or(0.0))));
    let shown = failed.len().min(MOST_FAILED);
    let _ = write!(out, "<section id=\"most-failed\">\n<h2>Checks students failed most</h2>\n");
    if failed.is_empty() {
        out.push_str("<p class=\"muted\">No check failed.</p>\n</section>\n");
        return;
    }
    let _ = writeln!(
        out,
        "<p class=\"legend\">{} of {} checks failed for at least one submission; the {shown} failed most, by the share of graded submissions that failed each.</p>",
        failed.len(),
        s.checks.len()
    );
    out.push_str("<table class=\"rates\"><thead><tr><th>Check</th><th class=\"n\">Failed</th><th class=\"meter-col\">Failed by</th></tr></thead><tbody>\n");
    for c in &failed[..shown] {
        let rate = ratio(c.failed, c.passed + c.failed);
        let _ = writeln!(
            out,
            "<tr data-failed-check=\"{id}\" title=\"{}\"><td class=\"label\"><code>{id}</code><div class=\"muted\">{}</div></td>{}<td class=\"meter-col\"><div class=\"meter\"><span class=\"poor\" style=\"width:{:.1}%\"></span></div><span class=\"pct\">{}</span></td></tr>",
            esc(&format!("{} failed, {} passed, {} could not be evaluated, {} skipped", c.failed, c.passed, c.errors, c.skipped)),
            esc(&c.title),
            number("td", "failed", Some(c.failed)),
            rate.unwrap_or(0.0) * 100.0,
            percent(rate),
            id = esc(&c.id),
        );
    }
    out.push_str("</tbody></table>\n</section>\n");
}

/// Checks the grader could not evaluate, apart from students' failures: a lab file
/// missing or Envoy not found is set-up to fix, not a lesson to teach again.
fn grader_errors(out: &mut String, s: &ClassStats) {
    let errors: Vec<&CheckStats> = s.checks.iter().filter(|c| c.errors > 0).collect();
    if errors.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<section id=\"grader-errors\" class=\"errors\">\n<h2>Checks the grader could not evaluate</h2>\n<p>Not counted as \
         students' failures, nor in pass rates: the grader's set-up (a lab file, Envoy) is why. Each submission's \
         report says what was missing. {} check(s), {} time(s) in all.</p>",
        errors.len(),
        errors.iter().map(|c| c.errors).sum::<usize>()
    );
    out.push_str("<table><thead><tr><th>Check</th><th class=\"n\">Submissions</th></tr></thead><tbody>\n");
    for c in errors {
        let _ = writeln!(
            out,
            "<tr data-error-check=\"{id}\"><td><code>{id}</code><div class=\"muted\">{}</div></td>{}</tr>",
            esc(&c.title),
            number("td", "errors", Some(c.errors)),
            id = esc(&c.id),
        );
    }
    out.push_str("</tbody></table>\n</section>\n");
}

/// `num / den`, None when there is nothing to divide.
fn ratio(num: usize, den: usize) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

fn steps(out: &mut String, s: &ClassStats) {
    out.push_str("<section id=\"steps\">\n<h2>Steps</h2>\n<table>\n<thead><tr><th class=\"n\">Step</th><th>Title</th>\
                  <th class=\"n\">Submissions with full marks</th>\
                  <th class=\"n\">Checks passed</th><th class=\"n\">Checks graded</th><th class=\"n\">Checks not evaluated</th>\
                  <th class=\"n\">Check pass rate</th><th class=\"n\">Mean score</th><th class=\"n\">Max score</th></tr></thead>\n<tbody>\n");
    for st in &s.steps {
        let _ = writeln!(
            out,
            "<tr data-step=\"{}\">{}{}{}{}{}{}{}{}{}</tr>",
            st.step,
            number("td", "step", Some(st.step)),
            cell("td", "", "title", None, &esc(&st.title)),
            number("td", "full_marks", Some(st.full_marks)),
            number("td", "passed", Some(st.passed)),
            number("td", "graded", Some(st.graded)),
            number("td", "errors", Some(st.errors)),
            rate(st.pass_rate),
            number("td", "mean_score", Some(st.mean_score)),
            number("td", "max_score", Some(st.max_score)),
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

fn checks(out: &mut String, s: &ClassStats) {
    out.push_str("<section id=\"checks\">\n<h2>Checks</h2>\n");
    for st in &s.steps {
        let _ = writeln!(
            out,
            "<h3>{}<span class=\"badge {}\">{}</span></h3>\n<table data-checks-of=\"{}\">\n<thead><tr><th>Check</th>\
             <th class=\"n\">Passed</th><th class=\"n\">Failed</th><th class=\"n\">Could not evaluate</th><th class=\"n\">Skipped</th>\
             <th class=\"n\">Pass rate</th><th class=\"wrong\">Most common wrong values</th></tr></thead>\n<tbody>",
            esc(&step_name(st.step, &st.title)),
            band(st.pass_rate),
            percent(st.pass_rate),
            st.step,
        );
        for c in s.checks.iter().filter(|c| c.step == st.step) {
            check_row(out, c);
        }
        out.push_str("</tbody>\n</table>\n");
    }
    out.push_str("</section>\n");
}

fn check_row(out: &mut String, c: &CheckStats) {
    let mut wrong = String::new();
    for w in &c.wrong_values {
        // An empty answer would be an invisible box.
        let shown = if w.value.is_empty() { "<em>(empty)</em>".to_string() } else { format!("<code>{}</code>", esc(&w.value)) };
        let _ = write!(wrong, "<li data-value=\"{}\" data-count=\"{}\">{shown}<span class=\"times\">× {}</span></li>", esc(&w.value), w.count, w.count);
    }
    let wrong = if wrong.is_empty() { "<span class=\"muted\">—</span>".to_string() } else { format!("<ol class=\"values\">{wrong}</ol>") };
    let _ = writeln!(
        out,
        "<tr data-check=\"{id}\"><td><code data-field=\"id\">{id}</code>{}</td>{}{}{}{}{}{}</tr>",
        cell("div", "muted", "title", None, &esc(&c.title)),
        number("td", "passed", Some(c.passed)),
        number("td", "failed", Some(c.failed)),
        number("td", "errors", Some(c.errors)),
        number("td", "skipped", Some(c.skipped)),
        rate(c.pass_rate),
        cell("td", "wrong", "wrong_values", None, &wrong),
        id = esc(&c.id),
    );
}

fn submissions(out: &mut String, s: &ClassStats) {
    out.push_str("<section id=\"submissions\">\n");
    table_head(
        out,
        &format!("Scores per submission ({})", s.submissions),
        &[("Submission", ""), ("Score", "n"), ("Max score", "n"), ("Status", ""), ("Reports", "")],
    );
    for sub in &s.submission_scores {
        let _ = writeln!(
            out,
            "<tr data-submission=\"{}\">{}{}{}{}{}</tr>",
            esc(&sub.name),
            cell("td", "", "name", None, &esc(&sub.name)),
            number("td", "score", Some(sub.score)),
            number("td", "max_score", Some(sub.max_score)),
            cell("td", "", "status", None, &esc(sub.status)),
            cell("td", "", "report", None, &format!("<code>{}</code>", esc(&sub.report))),
        );
    }
    out.push_str("</tbody></table></details>\n</section>\n");
}

/// A table folded under `summary`, open up to its body.
fn table_head(out: &mut String, summary: &str, columns: &[(&str, &str)]) {
    let _ = write!(out, "<details>\n<summary>{}</summary>\n<table>\n<thead><tr>", esc(summary));
    for (name, class) in columns {
        let _ = write!(out, "<th class=\"{class}\">{name}</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
}

fn step_name(step: u32, title: &str) -> String {
    if title.is_empty() { format!("Step {step}") } else { format!("Step {step}: {title}") }
}

/// `shown` is HTML already; `value`, when given, becomes `data-value`.
fn cell(tag: &str, class: &str, field: &str, value: Option<String>, shown: &str) -> String {
    let class = if class.is_empty() { String::new() } else { format!(" class=\"{class}\"") };
    let value = value.map(|v| format!(" data-value=\"{}\"", esc(&v))).unwrap_or_default();
    format!("<{tag}{class} data-field=\"{field}\"{value}>{shown}</{tag}>")
}

/// A number: exact in `data-value`, as JSON writes it; shown with one decimal at most
/// (a mean of 82.3333 reads as 82.3), or a dash for null.
fn number<T: Display>(tag: &str, field: &str, value: Option<T>) -> String {
    let text = value.map(|v| v.to_string());
    let shown = match text.as_deref().map(|t| (t, t.parse::<f64>())) {
        Some((_, Ok(f))) if f.fract() != 0.0 => format!("{f:.1}"),
        Some((t, _)) => t.to_string(),
        None => "—".to_string(),
    };
    cell(tag, "n", field, text, &shown)
}

fn rate(r: Option<f64>) -> String {
    cell("td", &format!("n rate {}", band(r)), "pass_rate", r.map(|r| r.to_string()), &percent(r))
}

/// The CSS class of a pass rate's colour.
pub fn band(rate: Option<f64>) -> &'static str {
    match rate {
        None => "none",
        Some(r) if r >= GOOD => "good",
        Some(r) if r >= FAIR => "fair",
        Some(_) => "poor",
    }
}

pub fn percent(rate: Option<f64>) -> String {
    rate.map(|r| format!("{:.1}%", r * 100.0)).unwrap_or_else(|| "—".into())
}

/// Safe in text and in quoted attributes alike; a control character or a noncharacter,
/// which HTML parsers report as errors, is made a visible escape.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            c if c.is_control() || crate::display::is_noncharacter(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::stats::tests::{batch, check, result};
    use crate::result::Status;

    #[test]
    fn escapes_the_five() {
        assert_eq!(esc(r#"<a href="x">'&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    }

    #[test]
    fn steps_graded_read_as_ranges() {
        assert_eq!(step_ranges([0, 1, 2, 3, 4, 5, 6, 7, 8].into_iter()), "0–8");
        assert_eq!(step_ranges([0, 1, 3, 5, 6].into_iter()), "0–1, 3, 5–6");
        assert_eq!(step_ranges([4].into_iter()), "4");
    }

    #[test]
    fn bands_at_their_edges() {
        assert_eq!([band(Some(0.8)), band(Some(0.7999)), band(Some(0.5)), band(Some(0.4999)), band(None)], ["good", "fair", "fair", "poor", "none"]);
    }

    #[test]
    fn a_hostile_id_and_value_stay_text() {
        let s = batch(&[result(vec![check("x\"><b>", 1, Status::Fail, 0, 1, Some("<i>'"))])]);
        let page = render(&s);
        assert!(!page.contains("<b>") && !page.contains("<i>"), "{page}");
        assert!(page.contains("data-check=\"x&quot;&gt;&lt;b&gt;\""));
    }
}
