//! The escaque binary: `escaque` alone speaks UCI on stdin/stdout; `escaque --help` lists the
//! developer tools; other arguments run as UCI commands and the program exits (see
//! `escaque::command_line`).

fn main() -> std::process::ExitCode {
    escaque::command_line::main(std::env::args_os())
}
