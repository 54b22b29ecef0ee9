//! Generates the board crate's large constant tables into `OUT_DIR`:
//!
//! * `zobrist.rs`: Zobrist keys drawn from a PCG generator with a fixed seed, so
//!   keys (and therefore `bench` signatures and table contents) are reproducible.
//! * `sliders.rs`: rook and bishop attack tables for both indexing schemes,
//!   PEXT (BMI2) and "fancy" magic multiplication, plus the magic numbers, which
//!   are searched here with a fixed seed.
//!
//! Small tables (knight, king, pawn attacks, lines) are `const fn` in `attacks.rs`.

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::fmt::Write as _;
use std::path::PathBuf;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn ray_attacks(sq: usize, occ: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occ & bit != 0 {
                break;
            }
        }
    }
    attacks
}

/// Relevant occupancy mask: the rays without their last square (edge squares never block).
fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += df;
            r += dr;
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&nf) || !(0..8).contains(&nr) {
                break;
            }
            mask |= 1u64 << (r * 8 + f);
        }
    }
    mask
}

/// Software PDEP: deposits the low bits of `index` into the set bits of `mask`.
fn deposit(index: u64, mask: u64) -> u64 {
    let mut result = 0;
    let mut m = mask;
    let mut i = 0;
    while m != 0 {
        let bit = m & m.wrapping_neg();
        if index >> i & 1 != 0 {
            result |= bit;
        }
        m &= m - 1;
        i += 1;
    }
    result
}

struct Slider {
    masks: Vec<u64>,
    offsets: Vec<usize>,
    magics: Vec<u64>,
    pext_table: Vec<u64>,
    magic_table: Vec<u64>,
}

fn build_slider(dirs: &[(i32, i32); 4], rng: &mut Pcg64Mcg) -> Slider {
    let mut s = Slider {
        masks: vec![],
        offsets: vec![],
        magics: vec![],
        pext_table: vec![],
        magic_table: vec![],
    };
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        let occs: Vec<u64> = (0..size as u64).map(|i| deposit(i, mask)).collect();
        let atts: Vec<u64> = occs.iter().map(|&o| ray_attacks(sq, o, dirs)).collect();
        s.masks.push(mask);
        s.offsets.push(s.pext_table.len());
        // PEXT ordering: index i is exactly the occupancy deposit(i, mask).
        s.pext_table.extend_from_slice(&atts);
        // Magic ordering: search a multiplier that maps every occupancy to a slot
        // without destructive collisions.
        let shift = 64 - bits;
        let mut slots = vec![0u64; size];
        let mut used = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            attempt += 1;
            let candidate = rng.next_u64() & rng.next_u64() & rng.next_u64();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            let ok = occs.iter().zip(&atts).all(|(&occ, &att)| {
                let idx = (occ.wrapping_mul(candidate) >> shift) as usize;
                if used[idx] != attempt {
                    used[idx] = attempt;
                    slots[idx] = att;
                    true
                } else {
                    slots[idx] == att
                }
            });
            if ok {
                break candidate;
            }
        };
        s.magics.push(magic);
        s.magic_table.extend_from_slice(&slots);
    }
    s
}

fn write_array(out: &mut String, name: &str, ty: &str, values: impl Iterator<Item = String>) {
    let values: Vec<String> = values.collect();
    writeln!(out, "pub(crate) static {name}: [{ty}; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        writeln!(out, "    {},", chunk.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn hex(v: &u64) -> String {
    format!("0x{v:016x}")
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));

    // Zobrist keys: [color][piece][square], castling (4 independent rights), en-passant file, side.
    let mut rng = Pcg64Mcg::seed_from_u64(0x7e55_e7a0_2b0a_4d1c);
    let mut z = String::new();
    let pieces: Vec<u64> = (0..2 * 6 * 64).map(|_| rng.next_u64()).collect();
    write_array(&mut z, "PIECE_SQUARE", "u64", pieces.iter().map(hex));
    let castling: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
    write_array(&mut z, "CASTLING", "u64", castling.iter().map(hex));
    let ep: Vec<u64> = (0..8).map(|_| rng.next_u64()).collect();
    write_array(&mut z, "EN_PASSANT_FILE", "u64", ep.iter().map(hex));
    writeln!(z, "pub const SIDE: u64 = {};", hex(&rng.next_u64())).unwrap();
    std::fs::write(out_dir.join("zobrist.rs"), z).expect("write zobrist.rs");

    let mut magic_rng = Pcg64Mcg::seed_from_u64(0x5eed_0f3a_61c5);
    let mut t = String::new();
    for (prefix, dirs) in [("ROOK", &ROOK_DIRS), ("BISHOP", &BISHOP_DIRS)] {
        let s = build_slider(dirs, &mut magic_rng);
        write_array(&mut t, &format!("{prefix}_MASKS"), "u64", s.masks.iter().map(hex));
        write_array(
            &mut t,
            &format!("{prefix}_OFFSETS"),
            "u32",
            s.offsets.iter().map(|o| o.to_string()),
        );
        write_array(&mut t, &format!("{prefix}_MAGICS"), "u64", s.magics.iter().map(hex));
        // Only a build with BMI2 indexes by PEXT (attacks.rs); elsewhere the table is unused.
        t.push_str("#[cfg(all(target_arch = \"x86_64\", target_feature = \"bmi2\"))]\n");
        write_array(&mut t, &format!("{prefix}_PEXT_TABLE"), "u64", s.pext_table.iter().map(hex));
        write_array(&mut t, &format!("{prefix}_MAGIC_TABLE"), "u64", s.magic_table.iter().map(hex));
    }
    std::fs::write(out_dir.join("sliders.rs"), t).expect("write sliders.rs");
}
