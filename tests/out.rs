//! `--out`: never through a link, never into a submission or the batch folder, never
//! over files labcheck did not write; a re-run leaves no stale report; one submission's
//! trouble never costs the class its files; the batch summary and options around it.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

fn class(names: &[&str]) -> tempfile::TempDir {
    let parent = tempfile::tempdir().unwrap();
    for name in names {
        std::fs::rename(Copy::sample().dir.keep(), parent.path().join(name)).unwrap();
    }
    parent
}

fn grade_into(parent: &Path, out: &Path) -> Graded {
    Grade::batch(parent).no_envoy().text().args(&["--out", out.to_str().unwrap()]).run()
}

fn listed(out: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_rerun_leaves_no_stale_report() {
    let parent = class(&["alice", "bob"]);
    let out = tempfile::tempdir().unwrap();
    assert_eq!(grade_into(parent.path(), out.path()).code, Some(0));
    assert!(out.path().join("bob.json").is_file());
    std::fs::remove_dir_all(parent.path().join("bob")).unwrap();
    let g = grade_into(parent.path(), out.path());
    assert_eq!(g.code, Some(0), "{}", g.stderr);
    let want = [".labcheck-manifest", "alice.gradescope.json", "alice.json", "alice.junit.xml", "alice.tap", "alice.txt", "class.csv", "class.html", "class.json", "scores.csv"];
    assert_eq!(listed(out.path()), want);
    let manifest = std::fs::read_to_string(out.path().join(".labcheck-manifest")).unwrap();
    assert_eq!(manifest.lines().filter(|l| !l.starts_with('#')).count(), want.len() - 1, "{manifest}");
}

#[test]
fn a_folder_labcheck_did_not_write_is_refused_before_grading() {
    let parent = class(&["alice"]);
    let out = tempfile::tempdir().unwrap();
    std::fs::write(out.path().join("notes.txt"), "mine").unwrap();
    let g = grade_into(parent.path(), out.path());
    assert_eq!(g.code, Some(2));
    assert!(g.stdout.is_empty(), "graded anyway: {}", g.stdout);
    assert!(g.stderr.contains("already holds files that labcheck did not write"), "{}", g.stderr);
    assert_eq!(listed(out.path()), ["notes.txt"]);
}

#[test]
fn links_planted_in_the_folder_are_replaced_not_followed() {
    let parent = class(&["alice"]);
    let out = tempfile::tempdir().unwrap();
    assert_eq!(grade_into(parent.path(), out.path()).code, Some(0));
    let elsewhere = tempfile::tempdir().unwrap();
    let victim = elsewhere.path().join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    std::fs::remove_file(out.path().join("alice.txt")).unwrap();
    std::os::unix::fs::symlink(&victim, out.path().join("alice.txt")).unwrap();
    std::fs::remove_file(out.path().join("class.html")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path().join("created.html"), out.path().join("class.html")).unwrap();
    assert_eq!(grade_into(parent.path(), out.path()).code, Some(0));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(!elsewhere.path().join("created.html").exists());
    for f in ["alice.txt", "class.html"] {
        assert!(std::fs::symlink_metadata(out.path().join(f)).unwrap().is_file(), "{f}");
    }
}

#[test]
fn out_inside_the_batch_or_a_submission_is_refused() {
    let parent = class(&["alice"]);
    for (out, says) in [(parent.path().join("results"), "inside the --batch folder"), (parent.path().join("alice/reports"), "inside the --batch folder")] {
        let g = grade_into(parent.path(), &out);
        assert_eq!(g.code, Some(2));
        assert!(g.stderr.contains(says), "{}", g.stderr);
        assert!(!out.exists());
    }
    let sub = parent.path().join("alice");
    let out = sub.join("reports");
    let g = Grade::new(&sub).no_envoy().text().args(&["--out", out.to_str().unwrap()]).run();
    assert_eq!(g.code, Some(2));
    assert!(g.stderr.contains("the grader never writes into a submission"), "{}", g.stderr);
    assert!(!out.exists());
}

/// Nor does a report file, the probe's recording or GitHub's step summary go into a
/// submission, even through a link: refused before grading, the file as it was.
#[test]
fn no_report_file_is_written_into_a_submission() {
    let c = Copy::sample();
    let args = c.dir.path().join("01-args.txt");
    let before = std::fs::read(&args).unwrap();
    let link = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&args, link.path().join("report.json")).unwrap();
    let link = link.path().join("report.json");
    let probe = c.dir.path().join("probe.json");
    let cases: [(&[&str], Option<&std::path::Path>, &str); 4] = [
        (&["--report-json", args.to_str().unwrap()], None, "--report-json"),
        (&["--report-junit", link.to_str().unwrap()], None, "--report-junit"),
        (&["--save-probe", probe.to_str().unwrap()], None, "--save-probe"),
        (&["--format", "github"], Some(&args), "GITHUB_STEP_SUMMARY"),
    ];
    for (flags, summary, says) in cases {
        // --save-probe needs the live probe; the run is refused before any Envoy starts.
        let g = if flags[0] == "--save-probe" { Grade::new(c.dir.path()) } else { Grade::new(c.dir.path()).no_envoy() };
        let mut g = g.text().args(flags);
        if let Some(s) = summary {
            g = g.env("GITHUB_STEP_SUMMARY", s.to_str().unwrap());
        }
        let g = g.run();
        assert_eq!(g.code, Some(2), "{flags:?}: {}", g.stderr);
        assert!(g.stderr.contains(says) && g.stderr.contains("the grader never writes into a submission"), "{}", g.stderr);
        assert_eq!(std::fs::read(&args).unwrap(), before, "{flags:?}");
        assert!(!probe.exists());
    }
}

/// A 250-character name, the longest most file systems allow a folder, fits once
/// its reports' endings are added: cut, and still unique.
#[test]
fn long_names_are_cut_and_the_class_files_written() {
    let a = format!("{}a", "n".repeat(249));
    let b = format!("{}b", "n".repeat(249));
    let parent = class(&[&a, &b]);
    let out = tempfile::tempdir().unwrap();
    let g = grade_into(parent.path(), out.path());
    assert_eq!(g.code, Some(0), "{}", g.stderr);
    let class: Value = serde_json::from_str(&std::fs::read_to_string(out.path().join("class.json")).unwrap()).unwrap();
    let subs = class["submission_scores"].as_array().unwrap();
    assert_eq!(subs.iter().map(|s| s["name"].as_str().unwrap()).collect::<Vec<_>>(), [a.as_str(), b.as_str()]);
    let reports: Vec<&str> = subs.iter().map(|s| s["report"].as_str().unwrap()).collect();
    assert_ne!(reports[0], reports[1]);
    for r in reports {
        assert!(r.len() < 200, "{r}");
        assert!(out.path().join(format!("{r}.gradescope.json")).is_file());
    }
}

/// A report that cannot be written (a directory holds its name) costs that report only.
#[test]
fn one_report_that_cannot_be_written_costs_no_other() {
    let parent = class(&["alice", "bob"]);
    let out = tempfile::tempdir().unwrap();
    assert_eq!(grade_into(parent.path(), out.path()).code, Some(0));
    std::fs::remove_file(out.path().join("bob.json")).unwrap();
    std::fs::create_dir(out.path().join("bob.json")).unwrap();
    std::fs::write(out.path().join("bob.json/x"), "").unwrap();
    let before = std::fs::metadata(out.path().join("class.json")).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let g = grade_into(parent.path(), out.path());
    assert_eq!(g.code, Some(2));
    assert!(g.stderr.contains("cannot write") && g.stderr.contains("bob.json"), "{}", g.stderr);
    assert!(std::fs::metadata(out.path().join("class.json")).unwrap().modified().unwrap() > before, "class.json not written again");
    for f in ["alice.json", "bob.txt", "bob.tap", "class.html", "scores.csv"] {
        assert!(out.path().join(f).is_file(), "{f}");
    }
}

#[test]
fn class_files_show_each_submission_under_its_own_name() {
    let parent = class(&["张伟", "李娜", "<i>x<"]);
    let out = tempfile::tempdir().unwrap();
    assert_eq!(grade_into(parent.path(), out.path()).code, Some(0));
    let class: Value = serde_json::from_str(&std::fs::read_to_string(out.path().join("class.json")).unwrap()).unwrap();
    let names: Vec<&str> = class["submission_scores"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["<i>x<", "张伟", "李娜"]);
    let html = std::fs::read_to_string(out.path().join("class.html")).unwrap();
    assert!(html.contains(">张伟<") && html.contains(">李娜<") && html.contains("&lt;i&gt;x&lt;"), "names in class.html");
    assert!(!html.contains("<i>x"));
    let scores = std::fs::read_to_string(out.path().join("scores.csv")).unwrap();
    assert!(scores.contains("\n张伟,") && scores.contains("\n李娜,"), "{scores}");
    assert!(out.path().join("张伟.json").is_file());
}

/// The batch's one-line summary lines its columns up in a terminal: a CJK character
/// takes two columns.
#[test]
fn the_batch_summary_pads_by_display_width() {
    let parent = class(&["张伟", "bob"]);
    let g = Grade::batch(parent.path()).no_envoy().text().run();
    let lines: Vec<&str> = g.stdout.lines().filter(|l| l.contains("Score ")).collect();
    assert_eq!(lines.len(), 2, "{}", g.stdout);
    let columns: Vec<usize> = lines.iter().map(|l| labcheck::display::width(&l[..l.find("Score ").unwrap()])).collect();
    assert_eq!(columns[0], columns[1], "{}", g.stdout);
}

#[test]
fn jobs_zero_is_refused_in_a_sentence() {
    let g = Grade::sample().no_envoy().args(&["--jobs", "0"]).run();
    assert_eq!(g.code, Some(2));
    assert!(g.stderr.contains("at least one submission at a time"), "{}", g.stderr);
    assert!(!g.stderr.contains("non-zero type"), "{}", g.stderr);
}

#[test]
fn the_printed_spec_names_no_development_path() {
    let out = assert_cmd::Command::cargo_bin("labcheck").unwrap().args(["spec", "--print"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let header: String = text.lines().take_while(|l| l.starts_with('#')).collect::<Vec<_>>().join("\n");
    assert!(!header.is_empty());
    for dev in ["../", "shared/", "tests/", "fixtures", ".md"] {
        assert!(!header.contains(dev), "{dev} in the header:\n{header}");
    }
}

/// With `--format github`, a Markdown summary is appended where GitHub says, for the
/// student: no expected value.
#[test]
fn github_step_summary_is_appended() {
    let c = Copy::sample();
    c.edit("03-mesh.txt", "trust_domain=cluster.local", "trust_domain=a|b");
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    std::fs::write(&summary, "before\n").unwrap();
    let g = c.grade().no_envoy().text().args(&["--format", "github", "--audience", "instructor"]).env("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()).run();
    assert_eq!(g.code, Some(1));
    assert!(g.stdout.contains("::error file="), "{}", g.stdout);
    assert!(g.stdout.contains(",line=3,title=mesh.trust_domain::"), "{}", g.stdout);
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.starts_with("before\n## ist2\\-boot"), "{md}");
    assert!(md.contains("| Step | Title | Score |"), "{md}");
    assert!(md.contains("**mesh\\.trust\\_domain**"), "{md}");
    assert!(md.contains("found: a\\|b"), "{md}");
    assert!(!md.contains("expected:"), "{md}");
}

/// The CI set-ups in docs/ci, run as their CI would run them on a repository holding
/// the sample answer, with the lab's params from the course's repository (cloned where
/// the set-up clones it): a correct submission passes, the JUnit report is where the
/// artifact step takes it and shows no expected value, and nothing is written into the
/// submission while grading.
#[test]
fn the_ci_examples_grade_a_correct_repository() {
    let yaml = |f: &str| -> serde_yaml::Value { serde_yaml::from_str(&std::fs::read_to_string(root().join("docs/ci").join(f)).unwrap()).unwrap() };
    let gh = yaml("github-actions.yml");
    let steps = gh["jobs"]["grade"]["steps"].as_sequence().unwrap();
    let run = steps.iter().find_map(|s| s["run"].as_str().filter(|r| r.contains("labcheck grade"))).expect("a step runs labcheck grade");
    let upload = steps.iter().find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/upload-artifact"))).expect("an upload step");
    let gl = yaml("gitlab-ci.yml");
    let job = &gl["labcheck"];
    assert_eq!(job["artifacts"]["reports"]["junit"], "labcheck.junit.xml");
    let lines = |v: &serde_yaml::Value| v.as_sequence().unwrap().iter().map(|l| l.as_str().unwrap().to_string()).collect::<Vec<_>>().join("\n");

    // GitHub: bash in the repository, $RUNNER_TEMP beside it.
    let builds = tempfile::tempdir().unwrap();
    let repo = ci_repo(builds.path());
    let temp = builds.path().join("runner-temp");
    course_lab(&temp.join("course"));
    let summary = temp.join("summary.md");
    let (code, out) = ci_shell(&repo, run, &[("RUNNER_TEMP", &temp), ("GITHUB_STEP_SUMMARY", &summary)]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("::notice") || !out.contains("::error"), "{out}");
    let artifact = upload["with"]["path"].as_str().unwrap().replace("${{ runner.temp }}", temp.to_str().unwrap());
    let junit = std::fs::read_to_string(&artifact).unwrap_or_else(|e| panic!("{artifact}: {e}"));
    assert!(junit.contains("<testsuite") && !junit.contains("expected"), "{junit}");
    assert!(std::fs::read_to_string(&summary).unwrap().contains("0 failed"));
    assert_eq!(ci_files(&repo), ci_files(&ci_repo(&builds.path().join("fresh"))), "nothing written into the submission");

    // GitLab: the script, then after_script, in the project folder.
    let builds = tempfile::tempdir().unwrap();
    let repo = ci_repo(builds.path());
    course_lab(&builds.path().join("course-42"));
    let job_id = Path::new("42");
    let (code, out) = ci_shell(&repo, &lines(&job["script"]), &[("CI_JOB_ID", job_id)]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(ci_files(&repo), ci_files(&ci_repo(&builds.path().join("fresh"))), "nothing written into the submission");
    let (code, out) = ci_shell(&repo, &lines(&job["after_script"]), &[("CI_JOB_ID", job_id)]);
    assert_eq!(code, Some(0), "{out}");
    let junit = std::fs::read_to_string(repo.join("labcheck.junit.xml")).unwrap();
    assert!(junit.contains("<testsuite") && !junit.contains("expected"), "{junit}");
}

/// A student's repository as the CI examples expect it: the submission alone.
fn ci_repo(parent: &Path) -> std::path::PathBuf {
    let repo = parent.join("project");
    copy_files(&sample(), &repo);
    repo
}

/// The course's repository as the CI examples clone it: the lab's params and files in lab/.
fn course_lab(course: &Path) {
    copy_files(sample_lab().parent().unwrap(), &course.join("lab"));
}

fn copy_files(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

fn ci_files(repo: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(repo).unwrap().map(|e| e.unwrap()).filter(|e| e.path().is_file()).map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap())).collect();
    files.sort();
    files
}

/// `script` run by bash -e in `dir`, with labcheck on the PATH and Envoy where the
/// example's Python lookup finds it: the exit code and stdout with stderr.
fn ci_shell(dir: &Path, script: &str, env: &[(&str, &Path)]) -> (Option<i32>, String) {
    let python = regex::Regex::new(r#""\$\(python3? -I -c '[^']*'\)""#).unwrap();
    let script = python.replace_all(script, regex::NoExpand(&format!("'{}'", envoy().display())));
    let bin = assert_cmd::cargo::cargo_bin!("labcheck");
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = std::process::Command::new("bash");
    cmd.args(["-e", "-c", &script]).current_dir(dir).env("PATH", path);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// `--audience instructor` reaches the instructor's formats only: the Gradescope file is
/// shown to the student.
#[test]
fn gradescope_files_are_for_students_whatever_the_audience() {
    let parent = class(&["alice"]);
    let f = parent.path().join("alice/03-mesh.txt");
    std::fs::write(&f, std::fs::read_to_string(&f).unwrap().replace("ca_addr_same=yes", "ca_addr_same=no")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let g = Grade::batch(parent.path()).no_envoy().text().args(&["--audience", "instructor", "--out", out.path().to_str().unwrap()]).run();
    assert_eq!(g.code, Some(1), "{}", g.stderr);
    assert!(std::fs::read_to_string(out.path().join("alice.json")).unwrap().contains("\"expected\": \"yes\""));
    let gs = std::fs::read_to_string(out.path().join("alice.gradescope.json")).unwrap();
    assert!(gs.contains("found: no") && !gs.contains("expected"), "{gs}");
}
