//! Processes and directories the grader makes: a PID once reaped is never signalled,
//! and a signal leaves no private directory behind.


use crate::common::*;
use labcheck::envoy::process;
use std::io::BufRead;
use std::time::{Duration, Instant};

/// After `stop_all` has killed and reaped a child, its guard knows it is gone and
/// signals its PID no more (the kernel may have given that PID to another process).
#[test]
fn a_child_stop_all_reaped_is_not_signalled_again() {
    let mut cmd = std::process::Command::new("sleep");
    cmd.arg("30");
    let mut child = process::spawn(cmd).unwrap();
    let pid = child.pid() as i32;
    process::stop_all();
    assert!(!alive(pid), "stop_all left {pid} running");
    let start = Instant::now();
    assert!(child.exited().is_some(), "the guard still takes {pid} for its running child");
    child.stop();
    assert!(start.elapsed() < Duration::from_millis(500), "stop waited on a child already reaped");
}

const HOLD: &str = "LABCHECK_TEST_HOLD_DIR";

/// A signal that comes after a private directory is made, before any child is started
/// (as while a validation is being set up), still removes it, and the grader exits
/// with 128 + the signal. This test runs itself again as the process to signal.
#[test]
fn a_signal_before_any_child_removes_the_private_directory() {
    if std::env::var_os(HOLD).is_some() {
        let dir = process::PrivateDir::new().unwrap();
        // On a line of its own: libtest has written `test NAME ... ` without one.
        println!("\nDIR {}", dir.path().display());
        std::thread::sleep(Duration::from_secs(60));
        return;
    }
    let (mut holder, dir) = holder("process::a_signal_before_any_child_removes_the_private_directory", HOLD, "DIR ");
    let dir = std::path::PathBuf::from(dir);
    assert!(dir.is_dir());
    unsafe { libc_kill(holder.id() as i32, 15) };
    let status = holder.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 15), "{status}");
    assert!(!dir.exists(), "{} outlived the signal", dir.display());
}

const HOLD_CHILD: &str = "LABCHECK_TEST_HOLD_CHILD";

/// A child dies with the grader, even when the grader is killed and cleans nothing up.
/// This test runs itself again as the grader to kill.
#[test]
fn a_child_dies_with_the_grader() {
    if std::env::var_os(HOLD_CHILD).is_some() {
        let mut cmd = std::process::Command::new("sleep");
        cmd.arg("60");
        let child = process::spawn(cmd).unwrap();
        println!("\nPID {}", child.pid());
        std::thread::sleep(Duration::from_secs(60));
        return;
    }
    let (mut holder, pid) = holder("process::a_child_dies_with_the_grader", HOLD_CHILD, "PID ");
    let pid: i32 = pid.parse().unwrap();
    assert!(alive(pid));
    holder.kill().unwrap();
    holder.wait().unwrap();
    let start = Instant::now();
    while alive(pid) && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!alive(pid), "{pid} outlived the grader that started it");
}

/// This test binary run again as `test` alone, with `env` set (the test then holds
/// what it made and prints it), and the rest of the line it printed after `prefix`.
fn holder(test: &str, env: &str, prefix: &str) -> (std::process::Child, String) {
    let mut holder = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(env, "1")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let lines = std::io::BufReader::new(holder.stdout.take().unwrap()).lines();
    match lines.map_while(Result::ok).find_map(|l| l.strip_prefix(prefix).map(String::from)) {
        Some(said) => (holder, said),
        None => {
            let _ = holder.kill();
            panic!("the holder printed no {prefix}line");
        }
    }
}

unsafe extern "C" {
    #[link_name = "kill"]
    fn libc_kill(pid: i32, sig: i32) -> i32;
}
