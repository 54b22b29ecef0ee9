//! The checksum that Syzygy table files carry in their last 16 bytes.
//!
//! The generator (`tbcheck` in Ronald de Man's `tb` repository) hashes the file
//! without its last 16 bytes in chunks of 16 MiB with `CityHashCrc256`, then
//! hashes the concatenated 32-byte chunk results with `CityHashCrc128`; the
//! 16 bytes of that result are appended to the file. This module is a port of
//! those two functions of Google's CityHash (MIT licence, Copyright (c) 2011
//! Google, Inc.; the version in `tb/src/city-c.c`).
//!
//! The file is read in 16 MiB pieces, so memory stays bounded whatever its size.

use std::io::{self, Read};

/// Chunk size of the per-chunk hashes.
const CHUNK: usize = 1 << 24;

const K0: u64 = 0xc3a5_c85c_97cb_3127;
const K1: u64 = 0xb492_b66f_be98_f273;
const K2: u64 = 0x9ae1_6a3b_2f90_404f;
const K3: u64 = 0xc949_d7c7_509e_6557;

/// Reads a file's contents and checks the embedded checksum.
///
/// `size` is the file's length in bytes; it must be 16 more than a multiple of 64.
/// Returns whether the checksum matches (an I/O error is an error).
pub(crate) fn verify(reader: &mut impl Read, size: u64) -> io::Result<bool> {
    if size % 64 != 16 {
        return Ok(false);
    }
    let body = size - 16;
    let mut chunk_hashes = Vec::with_capacity(32 * (body as usize).div_ceil(CHUNK).max(1));
    let mut buf = vec![0u8; CHUNK.min(body as usize)];
    let mut left = body;
    while left > 0 {
        let n = (left as usize).min(CHUNK);
        reader.read_exact(&mut buf[..n])?;
        for word in city_hash_crc256(&buf[..n]) {
            chunk_hashes.extend_from_slice(&word.to_le_bytes());
        }
        left -= n as u64;
    }
    let mut stored = [0u8; 16];
    reader.read_exact(&mut stored)?;
    let [lo, hi] = city_hash_crc128(&chunk_hashes);
    let mut computed = [0u8; 16];
    computed[..8].copy_from_slice(&lo.to_le_bytes());
    computed[8..].copy_from_slice(&hi.to_le_bytes());
    Ok(computed == stored)
}

#[inline(always)]
fn fetch64(s: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"))
}

#[inline(always)]
fn fetch32(s: &[u8], at: usize) -> u64 {
    u32::from_le_bytes(s[at..at + 4].try_into().expect("4 bytes")) as u64
}

#[inline(always)]
fn shift_mix(v: u64) -> u64 {
    v ^ (v >> 47)
}

/// `Hash128to64` of the pair (low `u`, high `v`).
#[inline(always)]
fn hash_len16(u: u64, v: u64) -> u64 {
    const K_MUL: u64 = 0x9ddf_ea08_eb38_2d69;
    let mut a = (u ^ v).wrapping_mul(K_MUL);
    a ^= a >> 47;
    let mut b = (v ^ a).wrapping_mul(K_MUL);
    b ^= b >> 47;
    b.wrapping_mul(K_MUL)
}

fn hash_len0to16(s: &[u8]) -> u64 {
    let len = s.len();
    if len > 8 {
        let a = fetch64(s, 0);
        let b = fetch64(s, len - 8);
        return hash_len16(a, b.wrapping_add(len as u64).rotate_right(len as u32)) ^ b;
    }
    if len >= 4 {
        let a = fetch32(s, 0);
        return hash_len16((len as u64).wrapping_add(a << 3), fetch32(s, len - 4));
    }
    if len > 0 {
        let (a, b, c) = (s[0] as u32, s[len >> 1] as u32, s[len - 1] as u32);
        let y = a.wrapping_add(b << 8);
        let z = (len as u32).wrapping_add(c << 2);
        return shift_mix((y as u64).wrapping_mul(K2) ^ (z as u64).wrapping_mul(K3))
            .wrapping_mul(K2);
    }
    K2
}

/// A 16-byte hash of 32 bytes at `s[at..]` and two seeds.
#[inline(always)]
fn weak_hash32(s: &[u8], at: usize, mut a: u64, mut b: u64) -> (u64, u64) {
    let (w, x, y, z) =
        (fetch64(s, at), fetch64(s, at + 8), fetch64(s, at + 16), fetch64(s, at + 24));
    a = a.wrapping_add(w);
    b = b.wrapping_add(a).wrapping_add(z).rotate_right(21);
    let c = a;
    a = a.wrapping_add(x).wrapping_add(y);
    b = b.wrapping_add(a.rotate_right(44));
    (a.wrapping_add(z), b.wrapping_add(c))
}

fn city_murmur(s: &[u8], seed: (u64, u64)) -> (u64, u64) {
    let len = s.len();
    let (mut a, mut b) = seed;
    let (mut c, mut d);
    if len <= 16 {
        a = shift_mix(a.wrapping_mul(K1)).wrapping_mul(K1);
        c = b.wrapping_mul(K1).wrapping_add(hash_len0to16(s));
        d = shift_mix(a.wrapping_add(if len >= 8 { fetch64(s, 0) } else { c }));
    } else {
        c = hash_len16(fetch64(s, len - 8).wrapping_add(K1), a);
        d = hash_len16(b.wrapping_add(len as u64), c.wrapping_add(fetch64(s, len - 16)));
        a = a.wrapping_add(d);
        let mut at = 0;
        let mut l = len as i64 - 16;
        while l > 0 {
            a ^= shift_mix(fetch64(s, at).wrapping_mul(K1)).wrapping_mul(K1);
            a = a.wrapping_mul(K1);
            b ^= a;
            c ^= shift_mix(fetch64(s, at + 8).wrapping_mul(K1)).wrapping_mul(K1);
            c = c.wrapping_mul(K1);
            d ^= c;
            at += 16;
            l -= 16;
        }
    }
    a = hash_len16(a, c);
    b = hash_len16(d, b);
    (a ^ b, hash_len16(b, a))
}

fn city_hash128_with_seed(s: &[u8], seed: (u64, u64)) -> (u64, u64) {
    let mut len = s.len();
    if len < 128 {
        return city_murmur(s, seed);
    }
    let (mut x, mut y) = seed;
    let mut z = (len as u64).wrapping_mul(K1);
    let v0 = (y ^ K1).rotate_right(49).wrapping_mul(K1).wrapping_add(fetch64(s, 0));
    let mut v = (v0, v0.rotate_right(42).wrapping_mul(K1).wrapping_add(fetch64(s, 8)));
    let mut w = (
        y.wrapping_add(z).rotate_right(35).wrapping_mul(K1).wrapping_add(x),
        x.wrapping_add(fetch64(s, 88)).rotate_right(53).wrapping_mul(K1),
    );
    let mut at = 0;
    loop {
        for _ in 0..2 {
            x = x
                .wrapping_add(y)
                .wrapping_add(v.0)
                .wrapping_add(fetch64(s, at + 8))
                .rotate_right(37)
                .wrapping_mul(K1);
            y = y
                .wrapping_add(v.1)
                .wrapping_add(fetch64(s, at + 48))
                .rotate_right(42)
                .wrapping_mul(K1);
            x ^= w.1;
            y = y.wrapping_add(v.0).wrapping_add(fetch64(s, at + 40));
            z = z.wrapping_add(w.0).rotate_right(33).wrapping_mul(K1);
            v = weak_hash32(s, at, v.1.wrapping_mul(K1), x.wrapping_add(w.0));
            w = weak_hash32(s, at + 32, z.wrapping_add(w.1), y.wrapping_add(fetch64(s, at + 16)));
            std::mem::swap(&mut z, &mut x);
            at += 64;
        }
        len -= 128;
        if len < 128 {
            break;
        }
    }
    x = x.wrapping_add(v.0.wrapping_add(z).rotate_right(49).wrapping_mul(K0));
    z = z.wrapping_add(w.0.rotate_right(37).wrapping_mul(K0));
    // Up to four 32-byte pieces from the end of the remaining `len` bytes.
    let mut tail_done = 0;
    while tail_done < len {
        tail_done += 32;
        y = x.wrapping_add(y).rotate_right(42).wrapping_mul(K0).wrapping_add(v.1);
        w.0 = w.0.wrapping_add(fetch64(s, at + len - tail_done + 16));
        x = x.wrapping_mul(K0).wrapping_add(w.0);
        z = z.wrapping_add(w.1).wrapping_add(fetch64(s, at + len - tail_done));
        w.1 = w.1.wrapping_add(v.0);
        v = weak_hash32(s, at + len - tail_done, v.0.wrapping_add(z), v.1);
    }
    x = hash_len16(x, v.0);
    y = hash_len16(y.wrapping_add(z), w.0);
    (
        hash_len16(x.wrapping_add(v.1), w.1).wrapping_add(y),
        hash_len16(x.wrapping_add(w.1), y.wrapping_add(v.1)),
    )
}

/// CityHash128 (v1.0), as `(low, high)`.
pub(crate) fn city_hash128(s: &[u8]) -> (u64, u64) {
    let len = s.len();
    if len >= 16 {
        city_hash128_with_seed(&s[16..], (fetch64(s, 0) ^ K3, fetch64(s, 8)))
    } else if len >= 8 {
        city_hash128_with_seed(
            &[],
            (fetch64(s, 0) ^ (len as u64).wrapping_mul(K0), fetch64(s, len - 8) ^ K1),
        )
    } else {
        city_hash128_with_seed(s, (K0, K1))
    }
}

/// One step of CRC-32C (Castagnoli) over the 8 little-endian bytes of `v`,
/// without pre- or post-inversion: what SSE4.2's `crc32` instruction computes.
#[cfg(all(target_arch = "x86_64", target_feature = "sse4.2"))]
#[inline(always)]
fn crc32c_u64(crc: u64, v: u64) -> u64 {
    // SAFETY: this definition is compiled only when the build enables SSE4.2
    // (`cfg(target_feature = "sse4.2")`), so the instruction exists on every CPU
    // the binary runs on. It checksums at several GB/s, against a few hundred
    // MB/s for the table-driven fallback: it decides how long a large set loads.
    unsafe { std::arch::x86_64::_mm_crc32_u64(crc, v) }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.2")))]
#[inline(always)]
fn crc32c_u64(crc: u64, v: u64) -> u64 {
    crc32c_u64_portable(crc, v)
}

/// The table of the reflected CRC-32C polynomial, built at compile time.
const CRC32C_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0x82f6_3b78 } else { c >> 1 };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse4.2"), allow(dead_code))]
fn crc32c_u64_portable(crc: u64, v: u64) -> u64 {
    let mut c = crc as u32;
    for byte in v.to_le_bytes() {
        c = CRC32C_TABLE[((c ^ byte as u32) & 0xff) as usize] ^ (c >> 8);
    }
    c as u64
}

/// `CityHashCrc256Long`: `s.len() >= 240`.
fn city_hash_crc256_long(s: &[u8], seed: u32) -> [u64; 4] {
    let mut len = s.len();
    let mut a = fetch64(s, 56).wrapping_add(K0);
    let mut b = fetch64(s, 96).wrapping_add(K0);
    let mut c = hash_len16(b, len as u64);
    let mut d = fetch64(s, 120).wrapping_mul(K0).wrapping_add(len as u64);
    let mut result = [c, d, 0, 0];
    let mut e = fetch64(s, 184).wrapping_add(seed as u64);
    let mut f = seed as u64;
    let (mut g, mut h, mut i, mut j) = (0u64, 0u64, 0u64, 0u64);
    let mut t = c.wrapping_add(d);
    let mut at = 0;
    let mut chunk = |at: &mut usize, multiplier: u64, z: u32| {
        let old_a = a;
        a = b.rotate_right(41 ^ z).wrapping_mul(multiplier).wrapping_add(fetch64(s, *at));
        b = c.rotate_right(27 ^ z).wrapping_mul(multiplier).wrapping_add(fetch64(s, *at + 8));
        c = d.rotate_right(41 ^ z).wrapping_mul(multiplier).wrapping_add(fetch64(s, *at + 16));
        d = e.rotate_right(33 ^ z).wrapping_mul(multiplier).wrapping_add(fetch64(s, *at + 24));
        e = t.rotate_right(25 ^ z).wrapping_mul(multiplier).wrapping_add(fetch64(s, *at + 32));
        t = old_a;
        f = crc32c_u64(f, a);
        g = crc32c_u64(g, b);
        h = crc32c_u64(h, c);
        i = crc32c_u64(i, d);
        j = crc32c_u64(j, e);
        *at += 40;
    };
    let iters = len / 240;
    len -= iters * 240;
    for _ in 0..iters {
        for _ in 0..3 {
            chunk(&mut at, 1, 1);
            chunk(&mut at, K0, 0);
        }
    }
    while len >= 40 {
        chunk(&mut at, K0, 0);
        len -= 40;
    }
    if len > 0 {
        at = at + len - 40;
        chunk(&mut at, K0, 0);
    }
    j = j.wrapping_add(i << 32);
    a = hash_len16(a, j);
    h = h.wrapping_add(g << 32);
    b = b.wrapping_add(h);
    c = hash_len16(c, f).wrapping_add(i);
    d = hash_len16(d, e.wrapping_add(result[0]));
    j = j.wrapping_add(e);
    i = i.wrapping_add(hash_len16(h, t));
    e = hash_len16(a, d).wrapping_add(j);
    f = hash_len16(b, c).wrapping_add(a);
    g = hash_len16(j, i).wrapping_add(c);
    result[0] = e.wrapping_add(f).wrapping_add(g).wrapping_add(h);
    a = shift_mix(a.wrapping_add(g).wrapping_mul(K0)).wrapping_mul(K0).wrapping_add(b);
    result[1] = result[1].wrapping_add(a).wrapping_add(result[0]);
    a = shift_mix(a.wrapping_mul(K0)).wrapping_mul(K0).wrapping_add(c);
    result[2] = a.wrapping_add(result[1]);
    a = shift_mix(a.wrapping_add(e).wrapping_mul(K0)).wrapping_mul(K0);
    result[3] = a.wrapping_add(result[2]);
    result
}

/// `CityHashCrc256`.
pub(crate) fn city_hash_crc256(s: &[u8]) -> [u64; 4] {
    if s.len() >= 240 {
        city_hash_crc256_long(s, 0)
    } else {
        let mut buf = [0u8; 240];
        buf[..s.len()].copy_from_slice(s);
        city_hash_crc256_long(&buf, !(s.len() as u32))
    }
}

/// `CityHashCrc128`, as `[low, high]`.
pub(crate) fn city_hash_crc128(s: &[u8]) -> [u64; 2] {
    if s.len() <= 900 {
        let (lo, hi) = city_hash128(s);
        [lo, hi]
    } else {
        let r = city_hash_crc256(s);
        [r[2], r[3]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_crc_matches_the_crc32c_check_value() {
        // CRC-32C("123456789") = 0xE3069283 with the usual pre/post inversion.
        let data = b"12345678";
        let c = crc32c_u64_portable(0xffff_ffff, u64::from_le_bytes(*data));
        let mut c = c as u32;
        c = CRC32C_TABLE[((c ^ b'9' as u32) & 0xff) as usize] ^ (c >> 8);
        assert_eq!(!c, 0xe306_9283);
    }

    #[test]
    fn crc_step_agrees_with_the_portable_one() {
        let mut x = 0x1234_5678_9abc_def0u64;
        for _ in 0..1000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let crc = x >> 32;
            assert_eq!(crc32c_u64(crc, x), crc32c_u64_portable(crc, x));
        }
    }
}
