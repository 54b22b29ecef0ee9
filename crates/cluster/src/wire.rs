//! The bytes the ranks exchange: four layouts, every integer little-endian.
//!
//! **Entry** (16 bytes): one table entry with its full key, so the receiver
//! indexes and verifies it exactly as if it had stored it itself.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | key (`u64`, the full Zobrist key) |
//! | 8..10 | move (`u16`, opaque, as in the table) |
//! | 10..12 | score (`i16`, table form: mate scores counted from the node) |
//! | 12..14 | static evaluation (`i16`) |
//! | 14 | depth − [`tt::MIN_STORED_DEPTH`] (`u8`) |
//! | 15 | bound in bits 0–1 (0 none, 1 upper, 2 lower, 3 exact), PV node in bit 2 |
//!
//! **Batch** (each rank to each other rank, once per exchange): a 28-byte header,
//! then `count` entries.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | search id (the `go` it belongs to, counted from 1) |
//! | 8..16 | nodes the sender has searched in that search |
//! | 16..24 | batches the sender has received from the addressee so far (the acknowledgement) |
//! | 24..28 | entry count |
//!
//! **Report** (a follower to the leader, once per search): a 20-byte header, then
//! one line per thread: depth (`i32`), score (`i32`), bound (`u8`), PV length
//! (`u8`), then the PV's moves (`u16` each).
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | search id |
//! | 8..16 | nodes the follower searched, final |
//! | 16..20 | line count |
//!
//! **Command chunk** (the leader to the followers): a UCI line, cut into chunks
//! that each fit [`MAX_MESSAGE`].
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | search id (of the `go` this is, or of the search current when sent) |
//! | 8 | 1 if this chunk ends the line, else 0 |
//! | 9.. | UTF-8 text |

use board::Move;
use search::ThreadResult;
use std::fmt;
use tt::{Bound, MAX_STORED_DEPTH, MIN_STORED_DEPTH, Record};

/// The largest message the ranks send, in bytes: small enough for MPI's eager
/// protocol everywhere (Open MPI's shared-memory limit is 4 KiB), so a receiver
/// never waits on the sender to finish a message it has started to receive.
pub const MAX_MESSAGE: usize = 4096;
/// Bytes of one [`Entry`].
pub const ENTRY_BYTES: usize = 16;
/// Bytes of a batch's header.
pub const BATCH_HEADER: usize = 28;
/// The most entries one batch carries.
pub const MAX_BATCH_ENTRIES: usize = (MAX_MESSAGE - BATCH_HEADER) / ENTRY_BYTES;
/// A report carries at most this much of each PV (the vote reads two moves; the
/// rest is what `info` shows when a follower's line is played).
pub const MAX_REPORT_PV: usize = 32;
const COMMAND_HEADER: usize = 9;

/// A message that does not have the layout it claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError {
    /// Which message.
    pub what: &'static str,
    /// How long it was.
    pub len: usize,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a malformed {} message ({} bytes)", self.what, self.len)
    }
}

impl std::error::Error for WireError {}

/// Reads little-endian fields from a message, failing on a short one.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8], what: &'static str) -> Reader<'a> {
        Reader { bytes, at: 0, what }
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        let error = WireError { what: self.what, len: self.bytes.len() };
        let field = self.bytes.get(self.at..self.at + N).ok_or(error)?;
        self.at += N;
        Ok(field.try_into().unwrap_or([0; N]))
    }

    fn u8(&mut self) -> Result<u8, WireError> {
        Ok(self.take::<1>()?[0])
    }
    fn u16(&mut self) -> Result<u16, WireError> {
        Ok(u16::from_le_bytes(self.take()?))
    }
    fn i16(&mut self) -> Result<i16, WireError> {
        Ok(i16::from_le_bytes(self.take()?))
    }
    fn u32(&mut self) -> Result<u32, WireError> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    fn i32(&mut self) -> Result<i32, WireError> {
        Ok(i32::from_le_bytes(self.take()?))
    }
    fn u64(&mut self) -> Result<u64, WireError> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    fn rest(&mut self) -> &'a [u8] {
        let rest = &self.bytes[self.at.min(self.bytes.len())..];
        self.at = self.bytes.len();
        rest
    }
}

/// A table entry with its full key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The position's Zobrist key.
    pub key: u64,
    /// What the table stored for it (score in table form).
    pub record: Record,
}

impl Entry {
    fn write(&self, out: &mut Vec<u8>) {
        let r = &self.record;
        let flags = r.bound as u8 | (u8::from(r.pv) << 2);
        out.extend_from_slice(&self.key.to_le_bytes());
        out.extend_from_slice(&r.mv.to_le_bytes());
        out.extend_from_slice(&saturate(r.score).to_le_bytes());
        out.extend_from_slice(&saturate(r.eval).to_le_bytes());
        out.push((r.depth.clamp(MIN_STORED_DEPTH, MAX_STORED_DEPTH) - MIN_STORED_DEPTH) as u8);
        out.push(flags);
    }

    fn read(r: &mut Reader) -> Result<Entry, WireError> {
        let key = r.u64()?;
        let mv = r.u16()?;
        let score = i32::from(r.i16()?);
        let eval = i32::from(r.i16()?);
        let depth = i32::from(r.u8()?) + MIN_STORED_DEPTH;
        let flags = r.u8()?;
        let record = Record { mv, score, eval, depth, bound: bound(flags), pv: flags & 4 != 0 };
        Ok(Entry { key, record })
    }
}

fn saturate(v: i32) -> i16 {
    v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

fn bound(bits: u8) -> Bound {
    match bits & 3 {
        0 => Bound::None,
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    }
}

/// One exchange's worth of entries from one rank, with its node count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    /// The search the node count belongs to.
    pub search: u64,
    /// Nodes the sender has searched in it.
    pub nodes: u64,
    /// Batches the sender has received from the addressee so far.
    pub ack: u64,
    /// At most [`MAX_BATCH_ENTRIES`].
    pub entries: Vec<Entry>,
}

impl Batch {
    /// The message (entries past [`MAX_BATCH_ENTRIES`] are left out).
    pub fn encode(&self) -> Vec<u8> {
        let entries = &self.entries[..self.entries.len().min(MAX_BATCH_ENTRIES)];
        let mut out = Vec::with_capacity(BATCH_HEADER + ENTRY_BYTES * entries.len());
        out.extend_from_slice(&self.search.to_le_bytes());
        out.extend_from_slice(&self.nodes.to_le_bytes());
        out.extend_from_slice(&self.ack.to_le_bytes());
        out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
        for e in entries {
            e.write(&mut out);
        }
        out
    }

    /// Rewrites the acknowledgement of an encoded batch (the same entries go to
    /// every rank; only this field differs).
    pub fn set_ack(message: &mut [u8], ack: u64) {
        if let Some(field) = message.get_mut(16..24) {
            field.copy_from_slice(&ack.to_le_bytes());
        }
    }

    /// Reads a batch.
    pub fn decode(bytes: &[u8]) -> Result<Batch, WireError> {
        let mut r = Reader::new(bytes, "batch");
        let (search, nodes, ack, count) = (r.u64()?, r.u64()?, r.u64()?, r.u32()?);
        if bytes.len() != BATCH_HEADER + ENTRY_BYTES * count as usize {
            return Err(WireError { what: "batch", len: bytes.len() });
        }
        let entries = (0..count).map(|_| Entry::read(&mut r)).collect::<Result<_, _>>()?;
        Ok(Batch { search, nodes, ack, entries })
    }
}

/// A follower's end of one search: its threads' results and its final node count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The search.
    pub search: u64,
    /// The follower's nodes in it.
    pub nodes: u64,
    /// Each thread's last completed iteration (PVs cut to [`MAX_REPORT_PV`] moves).
    pub results: Vec<ThreadResult>,
}

impl Report {
    /// The message.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&self.search.to_le_bytes());
        out.extend_from_slice(&self.nodes.to_le_bytes());
        out.extend_from_slice(&(self.results.len() as u32).to_le_bytes());
        for result in &self.results {
            let pv = &result.pv[..result.pv.len().min(MAX_REPORT_PV)];
            out.extend_from_slice(&result.depth.to_le_bytes());
            out.extend_from_slice(&result.score.to_le_bytes());
            out.push(result.bound as u8);
            out.push(pv.len() as u8);
            for mv in pv {
                out.extend_from_slice(&mv.bits().to_le_bytes());
            }
        }
        out
    }

    /// Reads a report.
    pub fn decode(bytes: &[u8]) -> Result<Report, WireError> {
        let mut r = Reader::new(bytes, "report");
        let (search, nodes, count) = (r.u64()?, r.u64()?, r.u32()?);
        let mut results = Vec::new();
        for _ in 0..count {
            let (depth, score, bound_bits, len) = (r.i32()?, r.i32()?, r.u8()?, r.u8()?);
            let pv = (0..len).map(|_| r.u16().map(Move::from_bits)).collect::<Result<_, _>>()?;
            results.push(ThreadResult { depth, score, bound: bound(bound_bits), pv });
        }
        if !r.rest().is_empty() {
            return Err(WireError { what: "report", len: bytes.len() });
        }
        Ok(Report { search, nodes, results })
    }
}

/// Part of a UCI line from the leader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandChunk {
    /// The `go` this line is, or the search current when it was sent.
    pub search: u64,
    /// Whether this chunk ends the line.
    pub last: bool,
    /// The text (a line may be cut inside a UTF-8 character; join before decoding).
    pub text: Vec<u8>,
}

impl CommandChunk {
    /// The messages that carry `line`, each at most [`MAX_MESSAGE`] bytes.
    pub fn encode_line(search: u64, line: &str) -> Vec<Vec<u8>> {
        let bytes = line.as_bytes();
        let pieces: Vec<&[u8]> = if bytes.is_empty() {
            vec![bytes]
        } else {
            bytes.chunks(MAX_MESSAGE - COMMAND_HEADER).collect()
        };
        let n = pieces.len();
        pieces
            .into_iter()
            .enumerate()
            .map(|(i, piece)| {
                let mut out = Vec::with_capacity(COMMAND_HEADER + piece.len());
                out.extend_from_slice(&search.to_le_bytes());
                out.push(u8::from(i + 1 == n));
                out.extend_from_slice(piece);
                out
            })
            .collect()
    }

    /// Reads a chunk.
    pub fn decode(bytes: &[u8]) -> Result<CommandChunk, WireError> {
        let mut r = Reader::new(bytes, "command");
        let (search, last) = (r.u64()?, r.u8()?);
        Ok(CommandChunk { search, last: last == 1, text: r.rest().to_vec() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Board;

    fn entry(key: u64, depth: i32, bound: Bound, pv: bool) -> Entry {
        Entry { key, record: Record { mv: 0xBEEF, score: -31_000, eval: 123, depth, bound, pv } }
    }

    #[test]
    fn a_batch_round_trips_with_every_bound_and_the_extreme_depths() {
        let entries = vec![
            entry(u64::MAX, MAX_STORED_DEPTH, Bound::Exact, true),
            entry(0, MIN_STORED_DEPTH, Bound::None, false),
            entry(0x0123_4567_89AB_CDEF, 12, Bound::Lower, false),
            entry(42, 0, Bound::Upper, true),
        ];
        let batch = Batch { search: 7, nodes: 1 << 40, ack: 3, entries };
        let mut bytes = batch.encode();
        assert_eq!(bytes.len(), BATCH_HEADER + 4 * ENTRY_BYTES);
        assert_eq!(Batch::decode(&bytes), Ok(batch.clone()));
        Batch::set_ack(&mut bytes, 99);
        assert_eq!(Batch::decode(&bytes).map(|b| b.ack), Ok(99));
    }

    #[test]
    fn out_of_range_fields_are_stored_as_the_table_would_store_them() {
        let mut e = entry(1, 400, Bound::Exact, false);
        e.record.score = 40_000;
        e.record.eval = -40_000;
        let batch = Batch { search: 1, nodes: 0, ack: 0, entries: vec![e] };
        let back = Batch::decode(&batch.encode()).expect("decodes").entries[0].record;
        assert_eq!((back.depth, back.score, back.eval), (MAX_STORED_DEPTH, 32767, -32768));
    }

    #[test]
    fn a_full_batch_fits_one_message_and_a_larger_one_is_cut() {
        let entries = vec![entry(9, 10, Bound::Lower, false); MAX_BATCH_ENTRIES + 5];
        let bytes = Batch { search: 1, nodes: 1, ack: 1, entries }.encode();
        assert!(bytes.len() <= MAX_MESSAGE);
        assert_eq!(Batch::decode(&bytes).map(|b| b.entries.len()), Ok(MAX_BATCH_ENTRIES));
    }

    #[test]
    fn malformed_messages_are_errors_not_panics() {
        let good =
            Batch { search: 1, nodes: 1, ack: 1, entries: vec![entry(1, 5, Bound::Exact, true)] }
                .encode();
        for len in 0..good.len() {
            assert!(Batch::decode(&good[..len]).is_err(), "{len} bytes accepted");
        }
        let mut long = good.clone();
        long.push(0);
        assert!(Batch::decode(&long).is_err());
        assert!(Report::decode(&[1, 2, 3]).is_err());
        assert!(CommandChunk::decode(&[0; 8]).is_err());
    }

    #[test]
    fn a_report_round_trips_and_cuts_long_pvs() {
        let board = Board::startpos();
        let e4 = board.parse_uci_move("e2e4", false).expect("legal");
        let d4 = board.parse_uci_move("d2d4", false).expect("legal");
        let long = ThreadResult { depth: 30, score: -5, bound: Bound::Exact, pv: vec![e4; 40] };
        let short =
            ThreadResult { depth: 12, score: 31_990, bound: Bound::Lower, pv: vec![d4, e4] };
        let empty = ThreadResult::default();
        let report =
            Report { search: 3, nodes: 55, results: vec![long, short.clone(), empty.clone()] };
        let back = Report::decode(&report.encode()).expect("decodes");
        assert_eq!((back.search, back.nodes), (3, 55));
        assert_eq!(back.results[0].pv.len(), MAX_REPORT_PV);
        assert_eq!(back.results[1], short);
        assert_eq!(back.results[2], empty);
    }

    #[test]
    fn a_long_line_is_cut_into_chunks_that_join_back() {
        let line = format!("position startpos moves {}", "e2e4 ".repeat(2000));
        let messages = CommandChunk::encode_line(4, &line);
        assert!(messages.len() > 1);
        let mut text = Vec::new();
        for (i, m) in messages.iter().enumerate() {
            assert!(m.len() <= MAX_MESSAGE);
            let chunk = CommandChunk::decode(m).expect("decodes");
            assert_eq!((chunk.search, chunk.last), (4, i + 1 == messages.len()));
            text.extend(chunk.text);
        }
        assert_eq!(String::from_utf8(text).as_deref(), Ok(line.as_str()));
        let one = CommandChunk::encode_line(5, "stop");
        assert_eq!(CommandChunk::decode(&one[0]).map(|c| c.last), Ok(true));
    }
}
