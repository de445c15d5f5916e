-- A row a sweep cannot read (a seat's clock, a held turn ping) is set aside with what is wrong with it,
-- so the sweeps pass it over from then on and every other match's reminders and timeouts still fire.
-- NULL: the row is read as usual. An admin finds the rows set aside with
-- ``SELECT * FROM seat_clocks WHERE quarantined IS NOT NULL`` (the same for turn_pings).
ALTER TABLE seat_clocks ADD COLUMN quarantined TEXT;
ALTER TABLE turn_pings ADD COLUMN quarantined TEXT;
