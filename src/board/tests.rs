use super::*;

#[test]
fn startpos_has_twenty_moves() {
    assert_eq!(Board::startpos().count_legal_moves(), 20);
    assert_eq!(Board::startpos().legal_moves().len(), 20);
}

#[test]
fn null_move_round_trip_key() {
    let b = Board::startpos();
    let n = b.make_null_move().make_null_move();
    assert_eq!(n.hash(), b.hash());
}
