//! `tessera datagen --dfrc PERCENT`, run as the binary: the share of games
//! that start from a double Fischer random position. At 100% every game's
//! recorded start comes from the DFRC position its seed and number draw, the
//! shard decodes to legal boards that survive FEN and packing, and the same
//! seed writes the same bytes. The shard script passes the engine's default.

mod common;

use board::{Board, CastlingSide, Color, File, Piece};
use common::binary;
use gamedata::{Game, GameReader, GameResult, PackedBoard};
use std::path::PathBuf;
use std::process::{Command, Output};
use tessera::datagen::{BackRank, DEFAULT_DFRC_PERCENT, dfrc_start};

const SEED: u64 = 11;
const GAMES: usize = 3;

/// A fresh path in the temporary folder.
fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tessera-datagen-dfrc-{}-{name}", std::process::id()))
}

/// Runs `tessera datagen` with `args` after `--out`.
fn datagen(out: &PathBuf, args: &[&str]) -> Output {
    Command::new(binary())
        .arg("datagen")
        .arg("--out")
        .arg(out)
        .args(args)
        .output()
        .expect("the engine runs")
}

/// The shard of `--games 3 --nodes 150 --seed 11` with `--dfrc PERCENT`.
fn shard(percent: &str) -> Vec<u8> {
    let out = temp_path(&format!("dfrc{percent}.bin"));
    let games = GAMES.to_string();
    let seed = SEED.to_string();
    let args = ["--games", &games, "--nodes", "150", "--seed", &seed, "--dfrc", percent];
    let run = datagen(&out, &args);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let bytes = std::fs::read(&out).expect("the shard");
    std::fs::remove_file(&out).expect("removed");
    bytes
}

fn decode(bytes: &[u8]) -> Vec<Game> {
    GameReader::new(bytes).collect::<Result<_, _>>().expect("every game decodes")
}

/// The file of `rank`'s king and of its rook on `side` of it.
fn king_and_rook(rank: BackRank, side: CastlingSide) -> (File, File) {
    let on = |piece| File::ALL.into_iter().filter(move |&f| rank.piece_on(f) == piece);
    let king = on(Piece::King).next().expect("a king");
    let rook = match side {
        CastlingSide::Long => on(Piece::Rook).next(),
        CastlingSide::Short => on(Piece::Rook).next_back(),
    };
    (king, rook.expect("two rooks"))
}

#[test]
fn dfrc_100_games_start_from_their_dfrc_positions_and_decode() {
    let bytes = shard("100");
    assert_eq!(bytes, shard("100"), "the same seed writes the same bytes");
    let games = decode(&bytes);
    assert_eq!(games.len(), GAMES);
    let mut chess960 = 0;
    for (index, game) in games.iter().enumerate() {
        let (white, black) = dfrc_start(SEED, index, 100).expect("every game is DFRC");
        let start = &game.start;
        // A castling right still held names the rook and king of the drawn arrangement.
        for (color, rank) in [(Color::White, white), (Color::Black, black)] {
            for side in CastlingSide::ALL {
                if let Some(rook) = start.castling_rook(color, side) {
                    let (king, rook_file) = king_and_rook(rank, side);
                    assert_eq!(rook.file(), rook_file, "game {index}: {color:?} {side:?}");
                    assert_eq!(start.king(color).file(), king, "game {index}: {color:?}");
                }
            }
        }
        chess960 += usize::from(start.has_chess960_castling());
        assert_eq!(start.fullmove_number(), 5, "8 or 9 random plies were played");
        for (ply, board, _) in game.positions() {
            let fen = board.to_fen(true);
            assert_eq!(Board::from_fen(&fen).expect("a legal FEN"), board, "game {index}, {ply}");
            let packed = PackedBoard::pack(&board, GameResult::Draw).expect("packs");
            assert_eq!(packed.unpack().expect("unpacks"), board, "{fen}");
        }
    }
    assert!(chess960 > 0, "some start keeps a castling right only Chess960 can write");

    // The same seed without the share plays other games, all from the standard start.
    let standard = decode(&shard("0"));
    assert_eq!(standard.len(), GAMES);
    for (dfrc, standard) in games.iter().zip(&standard) {
        assert_ne!(dfrc.start, standard.start);
        assert!(!standard.start.has_chess960_castling(), "{}", standard.start.to_fen(true));
    }
}

#[test]
fn a_share_above_100_is_refused() {
    let out = temp_path("refused.bin");
    let run = datagen(&out, &["--games", "1", "--dfrc", "101"]);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("--dfrc is a percentage of the games, 0 to 100"), "{stderr}");
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn the_shard_script_passes_the_default_share() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/datagen_shards.sh");
    let text = std::fs::read_to_string(script).expect("the script");
    let default = format!("dfrc=${{DFRC:-{DEFAULT_DFRC_PERCENT}}}");
    assert!(text.contains(&default), "scripts/datagen_shards.sh should set {default}");
    assert!(text.contains("--dfrc \"$dfrc\""), "and pass it to datagen");
}
