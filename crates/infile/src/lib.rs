//! The files the engine and its tools are pointed at (a network, a book of
//! openings, an EPD suite, a data shard, a tablebase), opened with bounds.
//!
//! A path a user typed may name anything: a directory, a character device
//! that never ends (`/dev/zero`), a FIFO that no one writes (where a plain
//! `open` waits for a writer forever), or a regular file of gigabytes. So a
//! given file is
//!
//! 1. opened without waiting (`O_NONBLOCK`: a FIFO opens at once) and refused
//!    unless it is a regular file, before a byte is read ([`InputFile::open`]);
//! 2. read only up to a limit its format implies, checked against its size
//!    before reading and enforced while reading ([`InputFile::read_all`],
//!    [`InputFile::read_header`]);
//! 3. or, for text, read with a bound on each line and on the whole
//!    ([`InputFile::read_text`]).
//!
//! Every refusal is an [`Error`] that names the path and the reason, for the
//! caller to print as one line and keep its previous state.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Why a given file was not read.
#[derive(Debug)]
pub enum Reason {
    /// The system would not open it (no such file, no permission, ...).
    Open(io::Error),
    /// It is not a regular file; the kind it is ("a directory", "a FIFO", ...).
    NotRegular(&'static str),
    /// It is larger than what it may hold.
    TooLarge {
        /// Its size in bytes.
        len: u64,
        /// The most it may hold.
        limit: u64,
    },
    /// It is shorter than the part that was to be read.
    TooShort {
        /// Its size in bytes.
        len: u64,
        /// The bytes that were to be read.
        wanted: u64,
    },
    /// Line `line` (from 1) of a text file is longer than `limit` bytes.
    LineTooLong {
        /// The line's number, from 1.
        line: usize,
        /// The longest line allowed, in bytes.
        limit: usize,
    },
    /// Line `line` (from 1) of a text file is not UTF-8.
    NotText {
        /// The line's number, from 1.
        line: usize,
    },
    /// Reading failed part way.
    Read(io::Error),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Open(e) => write!(f, "cannot open: {e}"),
            Reason::NotRegular(kind) => write!(f, "{kind}, not a regular file"),
            Reason::TooLarge { len, limit } => {
                write!(f, "{len} bytes, more than the {limit} it may hold")
            }
            Reason::TooShort { len, wanted } => {
                write!(f, "{len} bytes, fewer than the {wanted} to read")
            }
            Reason::LineTooLong { line, limit } => {
                write!(f, "line {line} is longer than {limit} bytes")
            }
            Reason::NotText { line } => write!(f, "line {line} is not UTF-8 text"),
            Reason::Read(e) => write!(f, "read failed: {e}"),
        }
    }
}

/// A refused or failed read of the file at `path`.
#[derive(Debug)]
pub struct Error {
    /// The path as given.
    pub path: PathBuf,
    /// Why.
    pub reason: Reason,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}': {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for Error {}

impl From<Error> for String {
    fn from(e: Error) -> String {
        e.to_string()
    }
}

/// The bounds of a text file: the longest line and the largest whole, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextLimits {
    /// The longest line (without its line ending).
    pub line: usize,
    /// The largest file.
    pub total: u64,
}

/// A regular file, open for reading, with its size when opened.
#[derive(Debug)]
pub struct InputFile {
    file: File,
    path: PathBuf,
    len: u64,
    /// Bytes read so far.
    at: u64,
}

impl InputFile {
    /// Opens `path` for reading without waiting, and refuses it unless it is
    /// a regular file (following symbolic links).
    pub fn open(path: impl AsRef<Path>) -> Result<InputFile, Error> {
        let path = path.as_ref().to_path_buf();
        let fail = |reason| Error { path: path.clone(), reason };
        let file = open_without_waiting(&path).map_err(|e| fail(Reason::Open(e)))?;
        let meta = file.metadata().map_err(|e| fail(Reason::Open(e)))?;
        if !meta.is_file() {
            return Err(fail(Reason::NotRegular(kind_of(&meta.file_type()))));
        }
        Ok(InputFile { file, len: meta.len(), path, at: 0 })
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's size in bytes when it was opened.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file was empty when it was opened.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn error(&self, reason: Reason) -> Error {
        Error { path: self.path.clone(), reason }
    }

    /// Refuses the file if it is larger than `limit` bytes.
    pub fn check_at_most(&self, limit: u64) -> Result<(), Error> {
        if self.len > limit {
            return Err(self.error(Reason::TooLarge { len: self.len, limit }));
        }
        Ok(())
    }

    /// Reads exactly the next `n` bytes (a header), refusing a file too short
    /// to hold them.
    pub fn read_header(&mut self, n: usize) -> Result<Vec<u8>, Error> {
        let wanted = self.at + n as u64;
        if self.len < wanted {
            return Err(self.error(Reason::TooShort { len: self.len, wanted }));
        }
        let mut bytes = vec![0; n];
        self.file.read_exact(&mut bytes).map_err(|e| self.error(Reason::Read(e)))?;
        self.at = wanted;
        Ok(bytes)
    }

    /// Reads the rest of the file, at most `limit` bytes in all (the header
    /// read before included): refused before reading when the file is larger,
    /// and while reading when it grew.
    pub fn read_all(mut self, limit: u64) -> Result<Vec<u8>, Error> {
        self.check_at_most(limit)?;
        let mut bytes = Vec::with_capacity((self.len - self.at) as usize);
        let room = limit - self.at;
        (&mut self.file)
            .take(room + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| self.error(Reason::Read(e)))?;
        let read = self.at + bytes.len() as u64;
        if read > limit {
            return Err(self.error(Reason::TooLarge { len: read, limit }));
        }
        Ok(bytes)
    }

    /// Reads the whole file as UTF-8 text within `limits`: refused before
    /// reading when it is larger than `limits.total`, and when a line is
    /// longer than `limits.line` or not UTF-8.
    pub fn read_text(self, limits: TextLimits) -> Result<String, Error> {
        let path = self.path.clone();
        let fail = |reason| Error { path: path.clone(), reason };
        let bytes = self.read_all(limits.total)?;
        for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.len() > limits.line {
                return Err(fail(Reason::LineTooLong { line: n + 1, limit: limits.line }));
            }
        }
        String::from_utf8(bytes).map_err(|e| {
            let line = e.as_bytes()[..e.utf8_error().valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            fail(Reason::NotText { line: line + 1 })
        })
    }

    /// The open file, to read as a stream (a data shard): what
    /// [`InputFile::open`] checked holds, but no size is enforced.
    pub fn into_file(self) -> File {
        self.file
    }
}

/// Opens `path` for reading; where the system has it, with `O_NONBLOCK`, so
/// that a FIFO without a writer opens at once (a read from a regular file is
/// not affected by the flag).
fn open_without_waiting(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// What a file that is not a regular one is, in words.
fn kind_of(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("infile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        let _ = std::fs::remove_dir(&dir);
        dir
    }

    fn reason(result: Result<InputFile, Error>) -> Reason {
        result.expect_err("refused").reason
    }

    #[test]
    fn only_regular_files_open() {
        let dir = std::env::temp_dir();
        assert!(matches!(reason(InputFile::open(&dir)), Reason::NotRegular("a directory")));
        let missing = temp("missing");
        assert!(matches!(reason(InputFile::open(&missing)), Reason::Open(_)));
        let file = temp("regular");
        std::fs::write(&file, b"12345").unwrap();
        let opened = InputFile::open(&file).unwrap();
        assert_eq!(opened.len(), 5);
        assert_eq!(opened.read_all(5).unwrap(), b"12345");
        std::fs::remove_file(&file).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_refused_at_once() {
        use std::time::{Duration, Instant};
        assert!(matches!(
            reason(InputFile::open("/dev/zero")),
            Reason::NotRegular("a character device")
        ));
        let fifo = temp("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let start = Instant::now();
        assert!(matches!(reason(InputFile::open(&fifo)), Reason::NotRegular("a FIFO")));
        assert!(start.elapsed() < Duration::from_secs(5), "the open waited for a writer");
        std::fs::remove_file(&fifo).unwrap();
    }

    #[test]
    fn sizes_are_checked_before_reading() {
        let file = temp("sizes");
        std::fs::write(&file, vec![7u8; 100]).unwrap();
        let big = InputFile::open(&file).unwrap().read_all(99).unwrap_err();
        assert!(matches!(big.reason, Reason::TooLarge { len: 100, limit: 99 }), "{big}");
        let mut f = InputFile::open(&file).unwrap();
        assert_eq!(f.read_header(16).unwrap(), vec![7u8; 16]);
        assert_eq!(f.read_all(100).unwrap(), vec![7u8; 84]);
        let short = InputFile::open(&file).unwrap().read_header(101).unwrap_err();
        assert!(matches!(short.reason, Reason::TooShort { len: 100, wanted: 101 }));
        // A sparse file of 1 TB is refused without reading (and without the memory).
        let huge = temp("huge");
        std::fs::File::create(&huge).unwrap().set_len(1 << 40).unwrap();
        let refused = InputFile::open(&huge).unwrap().read_all(1 << 20).unwrap_err();
        assert!(matches!(refused.reason, Reason::TooLarge { .. }));
        std::fs::remove_file(&huge).unwrap();
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn text_is_bounded_by_line_and_whole() {
        let limits = TextLimits { line: 8, total: 64 };
        let file = temp("text");
        std::fs::write(&file, "one\r\ntwo\nthree\n").unwrap();
        assert_eq!(
            InputFile::open(&file).unwrap().read_text(limits).unwrap(),
            "one\r\ntwo\nthree\n"
        );
        std::fs::write(&file, "one\nnine char\n").unwrap();
        let long = InputFile::open(&file).unwrap().read_text(limits).unwrap_err();
        assert!(matches!(long.reason, Reason::LineTooLong { line: 2, limit: 8 }), "{long}");
        std::fs::write(&file, b"ok\nok\n\xff\n").unwrap();
        let bytes = InputFile::open(&file).unwrap().read_text(limits).unwrap_err();
        assert!(matches!(bytes.reason, Reason::NotText { line: 3 }), "{bytes}");
        std::fs::write(&file, "x\n".repeat(33)).unwrap();
        let whole = InputFile::open(&file).unwrap().read_text(limits).unwrap_err();
        assert!(matches!(whole.reason, Reason::TooLarge { len: 66, limit: 64 }), "{whole}");
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn errors_name_the_path_and_the_reason() {
        let e = InputFile::open("/dev/null").unwrap_err();
        assert_eq!(e.to_string(), "'/dev/null': a character device, not a regular file");
    }
}
