//! The quantised network of the engine's size ([`Network`]), its file format,
//! and its first layer on a board from scratch (`fresh`).
//!
//! File format (all integers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0..4 | magic `TSNN` ([`MAGIC`]) |
//! | 4..6 | format version ([`Network::VERSION`]) |
//! | 6..8 | hidden size H (must equal [`HIDDEN`]) |
//! | 8..10 | QA, 10..12 QB, 12..14 SCALE (must equal the constants of [`super::layout`]) |
//! | 14..16 | the layout: bits 0–7 the king buckets, 0 for one bucket not mirrored (every net so far), and bit 15 set when mirrored; bits 8–12 the output buckets B less one. It must be this engine's, except that a net of one output bucket loads in an engine of several: each bucket then has that net's one output layer, and the evaluation is the one the net was trained for |
//! | 16.. | first-layer weights: [`INPUTS`] × H `i16`, feature-major (feature `f`'s H weights together) |
//! | then | first-layer biases: H `i16` |
//! | then | output weights: B × 2H `i16`, bucket by bucket, each the side to move's accumulator first |
//! | then | output biases: B `i32` |
//!
//! Nothing may follow: a file of H neurons and B output buckets is
//! [`file_len`]`(H, B)` bytes. [`Network::from_bytes`] reads the embedded
//! default net at compile time, [`Network::load`] an `EvalFile` at run time,
//! with the same checks of the header and the length. The engine only reads networks; the trainer,
//! which writes them at any size, builds each file's header with [`header`]
//! (and its evaluation on [`output_layer`](super::output_layer)), so both
//! follow this one declaration.

use super::layout::{
    HIDDEN, INPUTS, KING_BUCKETS, MIRRORED, OUTPUT_BUCKETS, QA, QB, SCALE, feature_index, view,
};
use board::{Board, Color, Piece, Square};
use std::fmt;

/// The weights of the network, quantised.
#[derive(PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Network {
    /// First layer: the H weights of each input feature.
    pub feature_weights: [[i16; HIDDEN]; INPUTS],
    /// First layer biases.
    pub feature_biases: [i16; HIDDEN],
    /// Output weights of each output bucket: `[b][0]` for the side to move's
    /// accumulator, `[b][1]` for the other.
    pub output_weights: [[[i16; HIDDEN]; 2]; OUTPUT_BUCKETS],
    /// Output bias of each output bucket, in units of `QA × QB`.
    pub output_bias: [i32; OUTPUT_BUCKETS],
}

/// Why bytes are not a network of this engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with `TSNN`.
    BadMagic,
    /// A format version this engine does not read.
    Version(u16),
    /// The hidden size differs from this engine's.
    Hidden {
        /// In the file.
        found: u16,
    },
    /// QA, QB or SCALE differ from this engine's.
    Quantisation,
    /// The layout (king buckets, mirroring, output buckets) differs from this engine's.
    Layout {
        /// The layout field in the file.
        found: u16,
    },
    /// The file's length is not the one its header implies.
    Size {
        /// Expected length in bytes.
        expected: usize,
        /// Actual length.
        found: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::BadMagic => write!(f, "not a Tessera network (no TSNN header)"),
            NetError::Version(v) => {
                write!(f, "network format version {v}; this engine reads {}", Network::VERSION)
            }
            NetError::Hidden { found } => {
                write!(f, "network has {found} hidden neurons; this engine has {HIDDEN}")
            }
            NetError::Quantisation => write!(
                f,
                "network quantisation differs from this engine's (QA {QA}, QB {QB}, scale {SCALE})"
            ),
            NetError::Layout { found } => write!(
                f,
                "network has {} king buckets{} and {} output buckets; \
                 this engine has {KING_BUCKETS}{} and {OUTPUT_BUCKETS}{}",
                (found & 0xff).max(1),
                if found & 0x8000 != 0 { ", mirrored" } else { "" },
                (found >> 8 & 0x1f) + 1,
                if MIRRORED { ", mirrored" } else { "" },
                if OUTPUT_BUCKETS > 1 { " (or one)" } else { "" }
            ),
            NetError::Size { expected, found } => {
                write!(f, "network file is {found} bytes; expected {expected}")
            }
        }
    }
}

impl std::error::Error for NetError {}

const HEADER: usize = Network::HEADER_LEN;

/// The first four bytes of every network file.
pub const MAGIC: [u8; 4] = *b"TSNN";

/// The layout field (bytes 14..16) of a file of this build's input layout
/// with `output_buckets`: 0 for the layout of every net before king and
/// output buckets (one of each, not mirrored).
const fn layout_field(output_buckets: usize) -> u16 {
    let king = if KING_BUCKETS == 1 && !MIRRORED {
        0
    } else {
        KING_BUCKETS as u16 | if MIRRORED { 0x8000 } else { 0 }
    };
    king | ((output_buckets - 1) as u16) << 8
}

/// The length of a network file with `hidden` neurons and `output_buckets`:
/// the header, the i16 weights (first layer, its biases, the output layers)
/// and the i32 biases.
pub const fn file_len(hidden: usize, output_buckets: usize) -> usize {
    HEADER + 2 * (INPUTS * hidden + hidden + output_buckets * 2 * hidden) + 4 * output_buckets
}

/// The header of a network file with `hidden` neurons, `output_buckets`
/// (1 to 32) and this build's quantisation and input layout (bytes 0..16 of
/// the table above). An engine reads the file when its [`HIDDEN`] is `hidden`
/// and its [`OUTPUT_BUCKETS`] is `output_buckets`.
pub fn header(hidden: usize, output_buckets: usize) -> [u8; Network::HEADER_LEN] {
    let hidden = u16::try_from(hidden).expect("a hidden size that the header's u16 holds");
    assert!((1..=32).contains(&output_buckets), "{output_buckets} output buckets");
    let layout = layout_field(output_buckets);
    let mut out = [0; HEADER];
    out[..4].copy_from_slice(&MAGIC);
    for (i, v) in [Network::VERSION, hidden, QA as u16, QB as u16, SCALE as u16, layout]
        .into_iter()
        .enumerate()
    {
        out[4 + 2 * i..6 + 2 * i].copy_from_slice(&v.to_le_bytes());
    }
    out
}

const fn read_u16(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

const fn read_i16(bytes: &[u8], at: usize) -> i16 {
    i16::from_le_bytes([bytes[at], bytes[at + 1]])
}

impl Network {
    /// The format version this engine reads and writes.
    pub const VERSION: u16 = 1;
    /// The length of a network file in bytes.
    pub const FILE_LEN: usize = file_len(HIDDEN, OUTPUT_BUCKETS);
    /// The length of a network file's header in bytes.
    pub const HEADER_LEN: usize = 16;

    /// Parses a network file (usable in `const` context). The network is
    /// returned by value: at run time prefer [`Network::from_bytes_boxed`],
    /// which never holds a network on the stack.
    pub const fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if let Err(e) = Self::check_len(bytes) {
            return Err(e);
        }
        let mut net = Network {
            feature_weights: Self::feature_block(bytes),
            feature_biases: [0; HIDDEN],
            output_weights: [[[0; HIDDEN]; 2]; OUTPUT_BUCKETS],
            output_bias: [0; OUTPUT_BUCKETS],
        };
        net.read_after_features(bytes);
        Ok(net)
    }

    /// The first layer's weights of a file that [`check_len`](Self::check_len)
    /// accepted, taken as one block where the target is little-endian like
    /// the file. Compile-time evaluation interprets every step: the loop of
    /// [`read`](Self::read) spends seconds on a net with king buckets (and
    /// rustc then warns that the evaluation is taking long), the block a
    /// copy. It returns most of the net by value, which suits compile time; at
    /// run time [`read`](Self::read) fills a net on the heap in place.
    const fn feature_block(bytes: &[u8]) -> [[i16; HIDDEN]; INPUTS] {
        const LEN: usize = 2 * INPUTS * HIDDEN;
        let Some(block) = bytes.split_at(HEADER).1.first_chunk::<LEN>() else {
            panic!("check_len accepts only a file that holds the first layer")
        };
        if cfg!(target_endian = "little") {
            // SAFETY: both types are LEN bytes of plain integers, for which
            // every bit pattern is valid, and on a little-endian target each
            // pair of the file's bytes (little-endian `i16`s, feature-major)
            // is the `i16` at the same place of `[[i16; HIDDEN]; INPUTS]`.
            unsafe { core::mem::transmute::<[u8; LEN], [[i16; HIDDEN]; INPUTS]>(*block) }
        } else {
            let mut weights = [[0; HIDDEN]; INPUTS];
            let mut i = 0;
            while i < INPUTS * HIDDEN {
                weights[i / HIDDEN][i % HIDDEN] = read_i16(bytes, HEADER + 2 * i);
                i += 1;
            }
            weights
        }
    }

    /// Parses a network file into a network on the heap.
    pub fn from_bytes_boxed(bytes: &[u8]) -> Result<Box<Network>, NetError> {
        let mut net = Network::zeroed();
        net.read(bytes)?;
        Ok(net)
    }

    /// A network of zeros, on the heap (a network is too large for a
    /// thread's stack to hold safely).
    pub fn zeroed() -> Box<Network> {
        let zeroed = Box::<Network>::new_zeroed();
        // SAFETY: every field of `Network` is an integer or an array of
        // integers, for which all-zero bytes are a valid value.
        unsafe { zeroed.assume_init() }
    }

    /// A network of the engine's size with small pseudo-random weights, the
    /// same for the same `seed`: a stand-in for a trained net in tests of the
    /// network's arithmetic and its file format.
    pub fn pseudo_random(seed: u64) -> Box<Network> {
        let mut state = seed;
        let mut next = move |range: i16| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 33) % (2 * range as u64 + 1)) as i16 - range
        };
        let mut net = Network::zeroed();
        for row in net.feature_weights.iter_mut() {
            row.iter_mut().for_each(|w| *w = next(60));
        }
        net.feature_biases.iter_mut().for_each(|w| *w = next(100));
        net.output_weights.iter_mut().flatten().flatten().for_each(|w| *w = next(120));
        net.output_bias.iter_mut().for_each(|b| *b = i32::from(next(1000)) * 10);
        net
    }

    /// A copy on the heap, made without a copy on the stack.
    pub fn boxed_copy(&self) -> Box<Network> {
        let mut copy = Network::zeroed();
        for (to, from) in copy.feature_weights.iter_mut().zip(&self.feature_weights) {
            to.copy_from_slice(from);
        }
        copy.feature_biases = self.feature_biases;
        copy.output_weights = self.output_weights;
        copy.output_bias = self.output_bias;
        copy
    }

    /// Checks a network file's first [`HEADER_LEN`](Network::HEADER_LEN)
    /// bytes against this engine, and returns the length the whole file must
    /// have (usable in `const` context).
    pub const fn check_header(bytes: &[u8]) -> Result<usize, NetError> {
        if bytes.len() < HEADER {
            return Err(NetError::Size { expected: Self::FILE_LEN, found: bytes.len() });
        }
        if !(bytes[0] == MAGIC[0]
            && bytes[1] == MAGIC[1]
            && bytes[2] == MAGIC[2]
            && bytes[3] == MAGIC[3])
        {
            return Err(NetError::BadMagic);
        }
        let version = read_u16(bytes, 4);
        if version != Self::VERSION {
            return Err(NetError::Version(version));
        }
        let hidden = read_u16(bytes, 6);
        if hidden as usize != HIDDEN {
            return Err(NetError::Hidden { found: hidden });
        }
        if read_u16(bytes, 8) as i32 != QA
            || read_u16(bytes, 10) as i32 != QB
            || read_u16(bytes, 12) as i32 != SCALE
        {
            return Err(NetError::Quantisation);
        }
        let layout = read_u16(bytes, 14);
        if layout != layout_field(OUTPUT_BUCKETS) && layout != layout_field(1) {
            return Err(NetError::Layout { found: layout });
        }
        Ok(file_len(HIDDEN, Self::file_output_buckets(bytes)))
    }

    /// The output buckets of a network file whose header
    /// [`check_header`](Network::check_header) accepted: this engine's
    /// [`OUTPUT_BUCKETS`], or 1.
    const fn file_output_buckets(bytes: &[u8]) -> usize {
        (read_u16(bytes, 14) >> 8 & 0x1f) as usize + 1
    }

    /// Checks a network file's header and its length against this engine.
    const fn check_len(bytes: &[u8]) -> Result<(), NetError> {
        let expected = match Self::check_header(bytes) {
            Ok(len) => len,
            Err(e) => return Err(e),
        };
        if bytes.len() != expected {
            return Err(NetError::Size { expected, found: bytes.len() });
        }
        Ok(())
    }

    /// Reads a network file into `self`, in place.
    fn read(&mut self, bytes: &[u8]) -> Result<(), NetError> {
        Self::check_len(bytes)?;
        for (f, row) in self.feature_weights.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = read_i16(bytes, HEADER + 2 * (f * HIDDEN + j));
            }
        }
        self.read_after_features(bytes);
        Ok(())
    }

    /// Reads what follows the first layer's weights in a file that
    /// [`check_len`](Self::check_len) accepted (usable in `const` context).
    const fn read_after_features(&mut self, bytes: &[u8]) {
        let net = self;
        let mut at = HEADER + 2 * INPUTS * HIDDEN;
        let mut j = 0;
        while j < HIDDEN {
            net.feature_biases[j] = read_i16(bytes, at);
            at += 2;
            j += 1;
        }
        let buckets = Self::file_output_buckets(bytes);
        let mut bucket = 0;
        while bucket < buckets {
            let mut side = 0;
            while side < 2 {
                let mut j = 0;
                while j < HIDDEN {
                    net.output_weights[bucket][side][j] = read_i16(bytes, at);
                    at += 2;
                    j += 1;
                }
                side += 1;
            }
            bucket += 1;
        }
        let mut bucket = 0;
        while bucket < buckets {
            net.output_bias[bucket] =
                i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
            at += 4;
            bucket += 1;
        }
        // A net of one output bucket: every bucket evaluates with its layer.
        while bucket < OUTPUT_BUCKETS {
            net.output_weights[bucket] = net.output_weights[0];
            net.output_bias[bucket] = net.output_bias[0];
            bucket += 1;
        }
    }

    /// Reads a network file from disk with bounds ([`infile`]): only a
    /// regular file; its header first, and then, if the header is this
    /// engine's and the file's size the one it implies, exactly the rest.
    pub fn load(path: &std::path::Path) -> Result<Box<Network>, String> {
        let net_error = |e: NetError| format!("'{}': {e}", path.display());
        let mut file = infile::InputFile::open(path)?;
        if file.len() < HEADER as u64 {
            let found = file.len() as usize;
            return Err(net_error(NetError::Size { expected: Self::FILE_LEN, found }));
        }
        let mut bytes = file.read_header(HEADER)?;
        let expected = Network::check_header(&bytes).map_err(net_error)?;
        if file.len() != expected as u64 {
            return Err(net_error(NetError::Size { expected, found: file.len() as usize }));
        }
        bytes.extend(file.read_all(expected as u64)?);
        Network::from_bytes_boxed(&bytes).map_err(net_error)
    }
}

/// `perspective`'s half of the accumulator of `board`, from scratch: the first
/// layer's definition, which the accumulator and its cache keep incrementally.
pub(super) fn fresh(net: &Network, board: &Board, perspective: Color) -> [i16; HIDDEN] {
    let v = view(perspective, board.king(perspective));
    let mut values = net.feature_biases;
    for color in Color::ALL {
        for piece in Piece::ALL {
            let mut bits = board.colored_pieces(color, piece).0;
            while bits != 0 {
                let sq = Square::index_const(bits.trailing_zeros() as usize);
                bits &= bits - 1;
                let row = &net.feature_weights[feature_index(perspective, v, color, piece, sq)];
                for (x, &w) in values.iter_mut().zip(row) {
                    *x = x.wrapping_add(w);
                }
            }
        }
    }
    values
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network {{ hidden: {HIDDEN}, output_bias: {:?} }}", self.output_bias)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    impl Network {
        /// The network as a file (the engine only reads them; the trainer
        /// writes its own).
        pub(crate) fn to_bytes(&self) -> Vec<u8> {
            let mut out = header(HIDDEN, OUTPUT_BUCKETS).to_vec();
            let rows = self.feature_weights.iter().chain([&self.feature_biases]);
            for w in rows.chain(self.output_weights.iter().flatten()).flatten() {
                out.extend_from_slice(&w.to_le_bytes());
            }
            for b in self.output_bias {
                out.extend_from_slice(&b.to_le_bytes());
            }
            out
        }
    }

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let net = Network::pseudo_random(3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::FILE_LEN);
        assert_eq!(Network::from_bytes_boxed(&bytes).as_deref(), Ok(&*net));
        assert_eq!(
            Network::from_bytes_boxed(&bytes[..bytes.len() - 1]).err(),
            Some(NetError::Size { expected: Network::FILE_LEN, found: Network::FILE_LEN - 1 })
        );
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(Network::from_bytes_boxed(&bad).err(), Some(NetError::BadMagic));
        let mut bad = bytes.clone();
        bad[6] = bad[6].wrapping_add(1);
        assert!(matches!(Network::from_bytes_boxed(&bad), Err(NetError::Hidden { .. })));
        let mut bad = bytes.clone();
        bad[10] = 1;
        assert_eq!(Network::from_bytes_boxed(&bad).err(), Some(NetError::Quantisation));
        let mut bad = bytes.clone();
        bad[14] ^= 1;
        assert!(matches!(Network::from_bytes_boxed(&bad), Err(NetError::Layout { .. })));
        let mut bad = bytes;
        bad.push(0);
        assert!(matches!(Network::from_bytes_boxed(&bad), Err(NetError::Size { .. })));
        assert!(Network::from_bytes_boxed(b"TS").is_err());
    }

    #[test]
    fn the_header_is_the_one_the_engine_checks() {
        assert_eq!(Network::check_header(&header(HIDDEN, OUTPUT_BUCKETS)), Ok(Network::FILE_LEN));
        assert_eq!(file_len(HIDDEN, OUTPUT_BUCKETS), Network::FILE_LEN);
        let other = header(HIDDEN + 128, OUTPUT_BUCKETS);
        assert_eq!(read_u16(&other, 6) as usize, HIDDEN + 128);
        assert_eq!(
            Network::check_header(&other),
            Err(NetError::Hidden { found: (HIDDEN + 128) as u16 })
        );
        assert_eq!(
            file_len(HIDDEN + 128, OUTPUT_BUCKETS),
            Network::FILE_LEN + 2 * 128 * (INPUTS + 1 + 2 * OUTPUT_BUCKETS)
        );
        // Another number of output buckets is another layout, and another length.
        let buckets = if OUTPUT_BUCKETS == 8 { 4 } else { 8 };
        let other = header(HIDDEN, buckets);
        assert_eq!(
            Network::check_header(&other),
            Err(NetError::Layout { found: read_u16(&other, 14) })
        );
        let message = NetError::Layout { found: read_u16(&other, 14) }.to_string();
        assert!(message.contains(&format!("and {buckets} output buckets")), "{message}");
        let extra = buckets as isize - OUTPUT_BUCKETS as isize;
        let expected = Network::FILE_LEN as isize + extra * (4 * HIDDEN as isize + 4);
        assert_eq!(file_len(HIDDEN, buckets) as isize, expected);
    }

    #[test]
    fn a_net_of_one_output_bucket_serves_every_bucket() {
        // The file of a one-bucket net: the first layer, then one output layer.
        let net = Network::pseudo_random(11);
        let mut bytes = header(HIDDEN, 1).to_vec();
        let rows = net.feature_weights.iter().chain([&net.feature_biases]);
        for w in rows.chain(net.output_weights[0].iter()).flatten() {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes.extend_from_slice(&net.output_bias[0].to_le_bytes());
        assert_eq!(bytes.len(), file_len(HIDDEN, 1));
        assert_eq!(Network::check_header(&bytes), Ok(file_len(HIDDEN, 1)));
        let read = Network::from_bytes_boxed(&bytes).expect("a one-bucket net loads");
        assert_eq!(read.feature_weights, net.feature_weights);
        for bucket in 0..OUTPUT_BUCKETS {
            assert_eq!(read.output_weights[bucket], net.output_weights[0], "bucket {bucket}");
            assert_eq!(read.output_bias[bucket], net.output_bias[0], "bucket {bucket}");
        }
        // So it is the net with its one output layer in every bucket (whose
        // evaluation output.rs tests).
        let mut single = net.boxed_copy();
        single.output_weights = [net.output_weights[0]; OUTPUT_BUCKETS];
        single.output_bias = [net.output_bias[0]; OUTPUT_BUCKETS];
        assert_eq!(*read, *single);
        // A one-bucket header on a file of this engine's own length is refused.
        if OUTPUT_BUCKETS > 1 {
            bytes.truncate(HEADER);
            bytes.resize(Network::FILE_LEN, 0);
            assert!(matches!(Network::from_bytes_boxed(&bytes), Err(NetError::Size { .. })));
        }
    }
}
