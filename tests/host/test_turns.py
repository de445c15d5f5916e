from engine.host.turns import previous_turn_end

LOG = [(3, 0), (4, 0), (5, 1), (6, 2), (8, 0), (9, 0), (10, 1)]  # version 7 changed no board


def test_the_board_as_a_player_left_it_at_the_end_of_their_previous_turn() -> None:
    assert previous_turn_end(LOG, 0, 6) == 4  # seat 0 is to act after 5 and 6: it last played at 4
    assert previous_turn_end(LOG, 0, 9) == 4  # its own steps of this turn do not move the answer
    assert previous_turn_end(LOG, 1, 10) == 5  # seat 1's current turn began after 9
    assert previous_turn_end(LOG, 2, 10) == 6
    assert previous_turn_end(LOG, 1, 4) == 2  # before its first turn: the board before any move
    assert previous_turn_end([], 0, 5) is None
