//! The `chancery` command: parse the command line, set up logging, run one command.
//! Exit codes: 0 success (also when the output's reader closed it early, as `| head` does),
//! 1 failure, 2 usage error (clap's own).

use clap::Parser;
use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    init_logging(args.log_format);
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of the output went away (`chancery ... | head`): nothing to say.
        Err(e) if cli::closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chancery: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Logs go to stderr, filtered by RUST_LOG (default: info), as text or one JSON object a line.
fn init_logging(format: cli::LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    use std::io::IsTerminal;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    match format {
        cli::LogFormat::Text => builder.init(),
        cli::LogFormat::Json => builder.json().init(),
    }
}
