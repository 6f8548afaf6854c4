//! The compose deployment's mail server strips forged Authentication-Results, as
//! docs/deploying.md requires of the MX (issue 21). docker-mailserver cannot run here, so its
//! start hook (deploy/mailserver/user-patches.sh, mounted by docker-compose.yml) runs on a
//! Postfix and an OpenDKIM configuration of the test's own, and Postfix's own `postmap` reads
//! the table the hook writes, for the host name the shipped configuration gives.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The value of `KEY=value` in deploy/mailserver.env.
fn mailserver_env(key: &str) -> String {
    let text = std::fs::read_to_string(repo("deploy/mailserver.env")).expect("mailserver.env");
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}=")))
        .unwrap_or_else(|| panic!("{key} in deploy/mailserver.env"))
        .trim()
        .to_string()
}

/// Run the hook as docker-mailserver would, on the configuration in `dir`.
fn run_hook(dir: &Path) {
    let out = Command::new("bash")
        .arg(repo("deploy/mailserver/user-patches.sh"))
        .env(
            "CHANCERY_POSTCONF",
            format!("postconf -c {}", dir.display()),
        )
        .env("CHANCERY_POSTFIX_MAPS", dir.join("maps"))
        .env("CHANCERY_OPENDKIM_CONF", dir.join("opendkim.conf"))
        .output()
        .expect("run the hook");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What Postfix's header_checks table does with a header line: `Some(action)` or `None`.
fn header_check(dir: &Path, header: &str) -> Option<String> {
    let table = dir.join("maps/chancery-authentication-results");
    let out = Command::new("postmap")
        .arg("-c")
        .arg(dir)
        .arg("-q")
        .arg(header)
        .arg(format!("regexp:{}", table.display()))
        .output()
        .expect("postmap");
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn the_compose_mail_server_strips_forged_authentication_results() {
    let id = mailserver_env("OVERRIDE_HOSTNAME");
    let (cfg, _) = chancery::config::Config::load(&repo("deploy/chancery.toml")).expect("config");
    assert_eq!(
        cfg.authserv_id, id,
        "Chancery trusts the results the mail server writes under its own host name"
    );
    let compose = std::fs::read_to_string(repo("docker-compose.yml")).expect("compose");
    assert!(
        compose.contains(
            "./deploy/mailserver/user-patches.sh:/tmp/docker-mailserver/user-patches.sh:ro"
        ),
        "docker-mailserver runs the hook: {compose}"
    );
    // docker-mailserver's own settings as the hook finds them.
    let dir = std::env::temp_dir().join(format!("chancery-deploy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(
        dir.join("main.cf"),
        format!(
            "compatibility_level = 3.6\nmyhostname = {id}\n\
             header_checks = pcre:/etc/postfix/maps/header_checks.pcre\n\
             milter_default_action = accept\n"
        ),
    )
    .expect("main.cf");
    std::fs::write(
        dir.join("opendkim.conf"),
        "Mode                    sv\nSocket                  inet:8891@localhost\n",
    )
    .expect("opendkim.conf");
    // At every start, so twice: the same result.
    run_hook(&dir);
    run_hook(&dir);
    let postconf = |name: &str| {
        let out = Command::new("postconf")
            .arg("-c")
            .arg(&dir)
            .arg("-h")
            .arg(name)
            .output()
            .expect("postconf");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let table = dir.join("maps/chancery-authentication-results");
    assert_eq!(
        postconf("header_checks"),
        format!(
            "regexp:{} pcre:/etc/postfix/maps/header_checks.pcre",
            table.display()
        ),
        "first, and once; docker-mailserver's own checks kept"
    );
    assert_eq!(postconf("milter_default_action"), "tempfail");
    let opendkim = std::fs::read_to_string(dir.join("opendkim.conf")).expect("opendkim.conf");
    for want in [
        format!("AuthservID              {id}\n"),
        format!("RemoveARFrom            {id}\n"),
        "RemoveARAll             yes\n".to_string(),
    ] {
        assert_eq!(opendkim.matches(&want).count(), 1, "{want}: {opendkim}");
    }
    // Forged: any header claiming the mail server's id, however written, is dropped.
    for forged in [
        format!("Authentication-Results: {id}; dkim=pass header.d=example.test"),
        format!(
            "authentication-results: (forged) {}; dkim=pass",
            id.to_uppercase()
        ),
        format!("Authentication-Results: \"{id}\";\n\tdkim=pass"),
        format!("Authentication-Results:{id};dkim=pass"),
    ] {
        assert_eq!(
            header_check(&dir, &forged).as_deref(),
            Some("IGNORE"),
            "{forged}"
        );
    }
    // Another id (Chancery trusts none of those anyway) and other headers stay.
    for kept in [
        format!("Authentication-Results: {id}.evil.test; dkim=pass"),
        format!("Authentication-Results: x{id}; dkim=pass"),
        format!("Authentication-Results: {id}x; dkim=pass"),
        format!("X-Authentication-Results: {id}; dkim=pass"),
        "Subject: wm1 FRANCE S1901M".to_string(),
    ] {
        assert_eq!(header_check(&dir, &kept), None, "{kept}");
    }
}
