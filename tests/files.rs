//! Every file the engine is pointed at is read with bounds: `EvalFile`,
//! `genfens`'s book and `datagen --openings` each refuse a directory, a
//! character device, a FIFO with no writer, an empty file, a file of a
//! network's size with a wrong header and a file far larger than any network,
//! with one error line within a second; the engine answers `isready`, plays
//! a legal move with its previous net, and its memory stays bounded.
//!
//! Against a build that reads such paths whole (`TESSERA_BIN=<that build>
//! cargo test --test files`) the device and the FIFO make these tests time
//! out: the read never ends, or the open waits for a writer.

mod common;

use common::{Engine, SLOW, binary, is_legal, peak_memory_kib};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How soon a refusal must come.
const PROMPT: Duration = Duration::from_secs(1);

/// The most resident memory the engine may reach: its table (16 MB) and
/// network with room to spare, far below what reading the large file (8 GB)
/// or the device would take.
const PEAK_KIB: u64 = 200 << 10;

/// The shipped network, as a file: the one this build embeds, named once in
/// `crates/eval/build.rs`.
fn network() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/eval/nets").join(eval::nnue::EMBEDDED_NAME)
}

/// Paths that are not what the engine wants, made afresh in a folder of
/// their own (removed on drop), each with its name.
struct BadFiles {
    dir: PathBuf,
    paths: Vec<(&'static str, PathBuf)>,
}

impl BadFiles {
    fn new(test: &str) -> BadFiles {
        let dir = std::env::temp_dir().join(format!("tessera-files-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a-directory")).unwrap();
        let fifo = dir.join("a-fifo");
        assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success(), "mkfifo");
        std::fs::write(dir.join("empty"), b"").unwrap();
        // A network's size, its header damaged.
        let mut net = std::fs::read(network()).unwrap();
        net[..4].copy_from_slice(b"XXXX");
        std::fs::write(dir.join("wrong-header"), &net).unwrap();
        // 8 GB with a network's header (sparse: it takes no disk).
        let huge = dir.join("huge");
        std::fs::write(&huge, &std::fs::read(network()).unwrap()[..16]).unwrap();
        std::fs::OpenOptions::new().write(true).open(&huge).unwrap().set_len(8 << 30).unwrap();
        let paths = vec![
            ("a directory", dir.join("a-directory")),
            ("a character device", PathBuf::from("/dev/zero")),
            ("a FIFO with no writer", fifo),
            ("an empty file", dir.join("empty")),
            ("a network's size with a wrong header", dir.join("wrong-header")),
            ("a file far larger than any network", huge),
        ];
        BadFiles { dir, paths }
    }
}

impl Drop for BadFiles {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Sends `command` and returns the one line that answers it within
/// [`PROMPT`]; checks that `isready` follows at once with nothing else.
fn one_reply_within_a_second(e: &mut Engine, command: &str) -> String {
    let start = Instant::now();
    e.send(command);
    e.send("isready");
    let reply = e.next_line(PROMPT).unwrap_or_else(|| panic!("no reply to '{command}'"));
    let ready = e.next_line(PROMPT).unwrap_or_else(|| panic!("no readyok after '{command}'"));
    assert_eq!(ready, "readyok", "'{command}' had more than one reply: {reply} / {ready}");
    assert!(start.elapsed() < PROMPT, "'{command}' took {:?}", start.elapsed());
    reply
}

fn assert_memory_bounded(e: &Engine, after: &str) {
    let peak = e.peak_memory_kib().expect("VmHWM of the engine");
    assert!(peak < PEAK_KIB, "peak memory {peak} KiB after {after}");
}

/// The engine's `eval` line of the start position, which names its network.
fn eval_line(e: &mut Engine) -> String {
    e.send("position startpos");
    e.send("eval");
    e.wait_for(SLOW, |l| l.starts_with("info string static eval")).0
}

fn plays_a_legal_move(e: &mut Engine) {
    e.send("position startpos moves e2e4");
    e.send("go depth 6");
    let (mv, _) = e.bestmove(SLOW);
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert!(is_legal(fen, &mv), "{mv}");
}

#[test]
fn eval_file_refuses_what_is_not_a_network_and_keeps_the_previous_net() {
    let bad = BadFiles::new("evalfile");
    let mut e = Engine::start();
    let good = network();
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    e.sync();
    let before = eval_line(&mut e);
    assert!(before.ends_with(&format!("network {}", good.display())), "{before}");
    for (what, path) in &bad.paths {
        let reply = one_reply_within_a_second(
            &mut e,
            &format!("setoption name EvalFile value {}", path.display()),
        );
        assert!(
            reply.starts_with(&format!("info string error: setoption: '{}'", path.display())),
            "{what}: {reply}"
        );
        assert!(
            reply.ends_with(&format!("the network stays {}", good.display())),
            "{what}: {reply}"
        );
        assert_eq!(eval_line(&mut e), before, "{what}: the network changed");
        plays_a_legal_move(&mut e);
        assert_memory_bounded(&e, what);
    }
    assert!(e.quit(SLOW));
}

#[test]
fn genfens_refuses_a_book_that_is_not_a_book() {
    let bad = BadFiles::new("genfens");
    let mut e = Engine::start();
    for (what, path) in &bad.paths {
        let reply =
            one_reply_within_a_second(&mut e, &format!("genfens 2 seed 1 book {}", path.display()));
        assert!(
            reply.starts_with(&format!("info string error: openings '{}'", path.display()))
                || reply.starts_with("info string error: no openings in"),
            "{what}: {reply}"
        );
        plays_a_legal_move(&mut e);
        assert_memory_bounded(&e, what);
    }
    assert!(e.quit(SLOW));
}

/// `tessera "genfens ..." quit`, as OpenBench runs it, ends at once too.
#[test]
fn genfens_on_the_command_line_ends_at_once_on_a_fifo() {
    let bad = BadFiles::new("genfens-cli");
    let fifo = &bad.paths.iter().find(|(what, _)| what.contains("FIFO")).unwrap().1;
    let mut command = Command::new(binary());
    command.arg(format!("genfens 2 seed 1 book {}", fifo.display())).arg("quit");
    let mut e = Engine::spawn(command);
    let (line, _) = e.wait_for(SLOW, |l| l.starts_with("info string"));
    assert!(line.contains("a FIFO, not a regular file"), "{line}");
    assert!(e.wait_exit(PROMPT).is_some_and(|s| s.success()), "the engine did not end");
}

#[test]
fn datagen_refuses_openings_that_are_not_a_book() {
    let bad = BadFiles::new("datagen");
    for (what, path) in &bad.paths {
        let out = bad.dir.join("out.bin");
        let start = Instant::now();
        let mut child = Command::new(binary())
            .args(["datagen", "--games", "1", "--nodes", "100", "--openings"])
            .arg(path)
            .arg("--out")
            .arg(&out)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut peak = 0;
        let status = loop {
            if let Some(kib) = peak_memory_kib(child.id()) {
                peak = peak.max(kib);
            }
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > PROMPT {
                let _ = child.kill();
                panic!("{what}: datagen still runs after {PROMPT:?} (peak {peak} KiB)");
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert!(!status.success(), "{what}: datagen succeeded");
        let first = stderr.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(&format!("datagen: openings '{}'", path.display()))
                || first.starts_with("datagen: no openings in"),
            "{what}: {stderr}"
        );
        assert!(peak < PEAK_KIB, "{what}: peak memory {peak} KiB");
        assert!(!out.exists(), "{what}: an output file was made");
    }
}
