//! Running the `chancery` binary from a test.

use std::io::Write;
use std::process::{Command, Stdio};

/// Run `chancery` with `args` (and `stdin`, if any): (exit code, stdout, stderr).
pub fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chancery"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn chancery");
    if let Some(mut si) = child.stdin.take() {
        si.write_all(stdin.unwrap_or("").as_bytes())
            .expect("write stdin");
    }
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
