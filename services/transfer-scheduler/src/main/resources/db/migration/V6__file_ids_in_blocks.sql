-- File ids are handed out 50 at a time (Hibernate's pooled optimizer reads the sequence once per 50 files), so the
-- files of a job are inserted in batches instead of one round trip each: 1,000 files took a second to submit.
-- The column default uses the same sequence, so ids stay unique whoever inserts.
ALTER SEQUENCE transfer_file_file_id_seq INCREMENT BY 50;
