//! The board the `eval` command shows: each piece with what it adds to the
//! evaluation ([`eval::piece_values`]), as engines with a network explain theirs.

use board::{Board, File, Rank, Square};

/// The board, rank 8 at the top, each square with its piece and, under it,
/// the piece's value in centipawns from White's point of view (kings have none).
pub fn diagram(board: &Board, values: &[Option<i32>; 64]) -> String {
    let border = format!(" {}+\n", "+-------".repeat(8));
    let mut s = String::from(
        "What each piece adds to the evaluation (the evaluation less the evaluation \
         without it), centipawns, White's point of view:\n",
    );
    for rank in Rank::ALL.into_iter().rev() {
        s.push_str(&border);
        let (mut pieces, mut numbers) = (String::from(" "), String::from(" "));
        for file in File::ALL {
            let sq = Square::new(file, rank);
            let piece = board.colored_piece_on(sq).map_or(' ', |p| p.to_char());
            pieces.push_str(&format!("|   {piece}   "));
            match values[sq as usize] {
                Some(v) => numbers.push_str(&format!("| {v:>+5} ")),
                None => numbers.push_str("|       "),
            }
        }
        s.push_str(&format!("{pieces}| {}\n{numbers}|\n", rank.to_char()));
    }
    s.push_str(&border);
    s.push_str("     a       b       c       d       e       f       g       h\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_piece_stands_over_its_value() {
        let board = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let mut values = [None; 64];
        values[Square::new(File::A, Rank::First) as usize] = Some(512);
        let text = diagram(&board, &values);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 8 * 3 + 2);
        let rank1 = lines.iter().position(|l| l.starts_with(" |   R   |")).unwrap();
        assert!(lines[rank1].ends_with("| 1"), "{}", lines[rank1]);
        assert!(lines[rank1 + 1].starts_with(" |  +512 |       |"), "{}", lines[rank1 + 1]);
        assert!(lines[2].contains("|   k   |"), "{}", lines[2]);
    }
}
