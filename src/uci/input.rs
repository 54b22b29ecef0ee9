//! Reading UCI input as lines of bytes: a line that is not UTF-8 or is
//! absurdly long is reported as such instead of ending the loop, and a line
//! never takes more memory than [`MAX_LINE_BYTES`].

use std::io::{BufRead, ErrorKind};

/// The longest line kept, in bytes. A `position ... moves` line of a game of
/// thousands of moves is a few tens of kilobytes; what goes beyond this limit
/// is read and dropped.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum InputLine {
    /// A line of text, without its line ending.
    Text(String),
    /// A line that is not valid UTF-8: where the first bad byte is.
    NotUtf8 {
        /// The byte offset of the first invalid byte.
        at: usize,
        /// That byte.
        byte: u8,
    },
    /// A line longer than [`MAX_LINE_BYTES`] (its length in bytes).
    TooLong(usize),
}

/// Splits input into [`InputLine`]s; ends at end of input or at a read error.
pub struct Lines<R> {
    input: R,
    limit: usize,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `input`, each at most [`MAX_LINE_BYTES`].
    pub fn new(input: R) -> Lines<R> {
        Lines { input, limit: MAX_LINE_BYTES }
    }

    /// Lines of `input`, each at most `limit` bytes (for tests).
    pub fn with_limit(input: R, limit: usize) -> Lines<R> {
        Lines { input, limit }
    }

    /// Reads up to the next `\n`, keeping at most `limit` bytes; returns the bytes
    /// kept, the full length, and whether anything (even an empty line) was read.
    fn read_raw(&mut self) -> (Vec<u8>, usize, bool) {
        let mut kept = Vec::new();
        let mut length = 0;
        let mut read_any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => return (kept, length, read_any),
            };
            if chunk.is_empty() {
                return (kept, length, read_any);
            }
            read_any = true;
            let (body, consumed, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            let room = self.limit.saturating_sub(kept.len());
            kept.extend_from_slice(&body[..body.len().min(room)]);
            length += body.len();
            self.input.consume(consumed);
            if done {
                return (kept, length, read_any);
            }
        }
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = InputLine;

    fn next(&mut self) -> Option<InputLine> {
        let (mut bytes, length, read_any) = self.read_raw();
        if !read_any {
            return None;
        }
        if length > self.limit {
            return Some(InputLine::TooLong(length));
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        Some(match String::from_utf8(bytes) {
            Ok(text) => InputLine::Text(text),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                InputLine::NotUtf8 { at, byte: e.as_bytes()[at] }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<InputLine> {
        Lines::with_limit(input, limit).collect()
    }

    #[test]
    fn bad_bytes_and_long_lines_are_lines_too() {
        let text = |s: &str| InputLine::Text(s.to_string());
        assert_eq!(
            lines(b"isready\n\xff\nis\xe9\r\nuci\r\n\nlast", 100),
            [
                text("isready"),
                InputLine::NotUtf8 { at: 0, byte: 0xff },
                InputLine::NotUtf8 { at: 2, byte: 0xe9 },
                text("uci"),
                text(""),
                text("last")
            ]
        );
        assert_eq!(
            lines(b"12345\n1234\n123456", 4),
            [InputLine::TooLong(5), text("1234"), InputLine::TooLong(6)]
        );
        assert!(lines(b"", 4).is_empty());
    }

    /// A tiny read buffer splits lines across reads.
    #[test]
    fn lines_split_across_reads() {
        let input = std::io::BufReader::with_capacity(3, &b"position startpos\ngo\n"[..]);
        let got: Vec<InputLine> = Lines::with_limit(input, 10).collect();
        assert_eq!(got, [InputLine::TooLong(17), InputLine::Text("go".into())]);
    }
}
