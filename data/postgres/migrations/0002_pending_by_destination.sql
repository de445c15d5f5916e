-- The outbox read by destination (a match's thread, or one seat's messages): pending_by_destination
-- takes each destination's pending notices in order, and sending or failing one touches the rest of
-- its destination (the lease renewed or released). Only pending rows are indexed: a long match keeps
-- many sent notices, and those are never looked up this way.
CREATE INDEX deliveries_pending_by_destination ON deliveries (match_id, seat, id) WHERE status = 'pending';
