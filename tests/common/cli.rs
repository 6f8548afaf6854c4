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

/// A fresh directory `chancery-cli-<name>-<pid>` in the temporary directory with a copy of
/// `config/chancery.toml` whose database lives beside it: (the directory, the config's path).
#[allow(dead_code)] // not every test binary runs commands that need a configuration
pub fn fresh_config(name: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("chancery-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let config = dir.join("chancery.toml");
    let base = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("config/chancery.toml"),
    )
    .expect("config");
    std::fs::write(
        &config,
        base.replace("../var/chancery.sqlite", "chancery.sqlite"),
    )
    .expect("write config");
    let config = config.to_string_lossy().to_string();
    (dir, config)
}
