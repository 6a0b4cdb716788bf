CREATE OR REPLACE FUNCTION rebuild_result_tallies() RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    DELETE FROM result_tally;
    DELETE FROM result_category_tally;
    DELETE FROM result_task_tally;
    DELETE FROM result_judge_tally;
    DELETE FROM result_task_shape;
    EXECUTE result_tally_trajectory_sql('SELECT 1 AS sign, * FROM trajectory');
    EXECUTE result_tally_vote_sql(result_tally_votes_of('judge_vote', 1));
    PERFORM compact_result_tallies();
END
$fn$;
