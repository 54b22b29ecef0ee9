//! A training run's state after an epoch, as a file: enough to continue an
//! interrupted run and end with the bytes an uninterrupted one would have.
//!
//! The file (`resume.state` in the run's directory) holds the run's identity
//! (its settings and a digest of its samples, so a run is never continued on
//! other data or with other settings), the epochs done, and the optimiser's
//! state with the parameters. The shuffles need no state: the training loop
//! replays the finished epochs' shuffles from the seed.

use crate::optim::AdamW;
use std::path::Path;

/// Where a run stands after an epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// Epochs completed.
    pub epochs_done: usize,
    /// The parameters after them.
    pub params: Vec<f32>,
    /// The optimiser's moments and step count after them.
    pub optimiser: AdamW,
}

const MAGIC: &[u8; 4] = b"TSRS";
const VERSION: u32 = 1;

/// Writes `snapshot` of the run `identity` to `path`, through a temporary file
/// renamed over it, so an interruption leaves the previous state whole.
pub fn write(path: &Path, identity: &str, snapshot: &Snapshot) -> Result<(), String> {
    let mut bytes = Vec::with_capacity(64 + identity.len() + 12 * snapshot.params.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    put_u64(&mut bytes, identity.len() as u64);
    bytes.extend_from_slice(identity.as_bytes());
    put_u64(&mut bytes, snapshot.epochs_done as u64);
    put_u64(&mut bytes, u64::from(snapshot.optimiser.steps()));
    put_u64(&mut bytes, snapshot.params.len() as u64);
    let (m, v) = snapshot.optimiser.moments();
    for values in [&snapshot.params[..], m, v] {
        for x in values {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
    }
    let temporary = path.with_extension("state.tmp");
    std::fs::write(&temporary, &bytes).map_err(|e| format!("{}: {e}", temporary.display()))?;
    std::fs::rename(&temporary, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a state written by [`write()`]: the run's identity and its snapshot,
/// the optimiser's settings taken from `optimiser` (only its state is stored).
pub fn read(path: &Path, optimiser: &AdamW) -> Result<(String, Snapshot), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&bytes, optimiser)
        .ok_or_else(|| format!("{}: not a whole training state", path.display()))
}

fn parse(bytes: &[u8], optimiser: &AdamW) -> Option<(String, Snapshot)> {
    let mut reader = Reader { bytes };
    if reader.take(4)? != MAGIC || reader.u32()? != VERSION {
        return None;
    }
    let identity_len = usize::try_from(reader.u64()?).ok()?;
    let identity = String::from_utf8(reader.take(identity_len)?.to_vec()).ok()?;
    let epochs_done = usize::try_from(reader.u64()?).ok()?;
    let steps = u32::try_from(reader.u64()?).ok()?;
    let len = usize::try_from(reader.u64()?).ok()?;
    let params = reader.floats(len)?;
    let m = reader.floats(len)?;
    let v = reader.floats(len)?;
    if !reader.bytes.is_empty() {
        return None;
    }
    let mut optimiser = optimiser.clone();
    optimiser.restore(m, v, steps).ok()?;
    Some((identity, Snapshot { epochs_done, params, optimiser }))
}

fn put_u64(bytes: &mut Vec<u8>, x: u64) {
    bytes.extend_from_slice(&x.to_le_bytes());
}

/// Reads little-endian fields from the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.bytes.len() < n {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn floats(&mut self, n: usize) -> Option<Vec<f32>> {
        let raw = self.take(n.checked_mul(4)?)?;
        Some(raw.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot() -> Snapshot {
        let layout = crate::net::Layout { hidden: 1, factorised: false, output_buckets: 1 };
        let mut params = vec![0.25; layout.len()];
        let mut optimiser = AdamW::new(layout.len(), 0.01);
        optimiser.step(layout, &mut params, &vec![0.5; layout.len()], 0.01);
        Snapshot { epochs_done: 3, params, optimiser }
    }

    #[test]
    fn a_state_reads_back_as_written() {
        let dir = std::env::temp_dir().join(format!("tessera-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("resume.state");
        let written = snapshot();
        write(&path, "run settings", &written).unwrap();
        let (identity, read_back) = read(&path, &AdamW::new(0, 0.01)).unwrap();
        assert_eq!(identity, "run settings");
        assert_eq!(read_back, written);
        assert!(!path.with_extension("state.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_cut_or_foreign_file_is_refused() {
        let dir = std::env::temp_dir().join(format!("tessera-resume-cut-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("resume.state");
        write(&path, "run", &snapshot()).unwrap();
        let whole = std::fs::read(&path).unwrap();
        let optimiser = AdamW::new(0, 0.01);
        for cut in [0, 4, 20, whole.len() - 1] {
            assert!(parse(&whole[..cut], &optimiser).is_none(), "cut at {cut}");
        }
        let mut longer = whole.clone();
        longer.push(0);
        assert!(parse(&longer, &optimiser).is_none());
        let mut foreign = whole;
        foreign[0] = b'X';
        assert!(parse(&foreign, &optimiser).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
