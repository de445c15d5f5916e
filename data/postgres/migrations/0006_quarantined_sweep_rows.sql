-- Rows a sweep cannot read are set aside with what is wrong with them (see the SQLite migration 0017).
ALTER TABLE seat_clocks ADD COLUMN quarantined TEXT;
ALTER TABLE turn_pings ADD COLUMN quarantined TEXT;
