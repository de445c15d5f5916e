from engine.host.turns import previous_turn_end, told_by_latest

LOG = [(3, 0), (4, 0), (5, 1), (6, 2), (8, 0), (9, 0), (10, 1)]  # version 7 changed no board


def test_the_board_as_a_player_left_it_at_the_end_of_their_previous_turn() -> None:
    assert previous_turn_end(LOG, 0, 6) == 4  # seat 0 is to act after 5 and 6: it last played at 4
    assert previous_turn_end(LOG, 0, 9) == 4  # its own steps of this turn do not move the answer
    assert previous_turn_end(LOG, 1, 10) == 5  # seat 1's current turn began after 9
    assert previous_turn_end(LOG, 2, 10) == 6
    assert previous_turn_end(LOG, 1, 4) == 2  # before its first turn: the board before any move
    assert previous_turn_end([], 0, 5) is None


def test_the_latest_actions_tell_the_answer_only_when_they_hold_the_previous_turn() -> None:
    for upto in range(3, 11):
        for seat in range(3):
            for count in range(1, len(LOG) + 1):
                latest = [a for a in LOG if a[0] <= upto][-count:]
                if told_by_latest(latest, seat, upto):
                    assert previous_turn_end(latest, seat, upto) == previous_turn_end(LOG, seat, upto)
    assert told_by_latest(LOG[-2:], 0, 10)  # seat 0 is to act after 10: it last played at 9
    assert not told_by_latest(LOG[-3:], 1, 10)  # seat 1 acts at 10; its turn before lies further back
    assert told_by_latest(LOG[-5:], 1, 10)  # ... at 5
    assert not told_by_latest(LOG[-3:], 0, 9)  # seat 0's own steps 8 and 9 fill what was read
