CREATE OR REPLACE FUNCTION result_tally_trajectory_votes_gone() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    EXECUTE result_tally_vote_sql(result_tally_votes_of(
        format('(SELECT * FROM judge_vote WHERE "trajectoryId" = %s)', OLD.id), -1));
    RETURN OLD;
END
$fn$;
