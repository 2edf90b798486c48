-- A job's files are now inserted by one statement taking each id from the column default (see JobInserts), so ids
-- no longer need to come in blocks of 50 for Hibernate's pooled optimizer (V6).
ALTER SEQUENCE transfer_file_file_id_seq INCREMENT BY 1;
