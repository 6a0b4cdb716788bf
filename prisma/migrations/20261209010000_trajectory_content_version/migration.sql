-- The trajectories' data version names their content: what was imported and what the task records
-- added. The columns kept on each trajectory for the votes, the labels and the gold labels (the
-- panel's verdicts, the counts of votes and labels, the gold verdict) move only in transactions that
-- write those, which bump their own kinds ('votes', 'labels', 'gold'). Until now every vote a judge
-- run stored rewrote its trajectory's panel columns and so bumped 'trajectories' too, and whatever
-- is kept under it alone (the rules' hits, which scan every output) was computed afresh many times a
-- second (decision 38). Inserts and deletes bump it as before; an update bumps it when anything but
-- those columns changes.
DROP TRIGGER "trajectory_data_version" ON "trajectory";
CREATE CONSTRAINT TRIGGER "trajectory_data_version" AFTER INSERT OR DELETE ON "trajectory"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version('trajectories');
CREATE CONSTRAINT TRIGGER "trajectory_content_data_version" AFTER UPDATE ON "trajectory"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN ((to_jsonb(OLD) - ARRAY['panelVerdict', 'panelUpstream', 'panelLocalGit', 'panelMemory', 'panelOther',
                                 'panelSplit', 'voteCount', 'unparseableVotes', 'labelCount', 'goldOverall'])
          IS DISTINCT FROM
          (to_jsonb(NEW) - ARRAY['panelVerdict', 'panelUpstream', 'panelLocalGit', 'panelMemory', 'panelOther',
                                 'panelSplit', 'voteCount', 'unparseableVotes', 'labelCount', 'goldOverall']))
    EXECUTE FUNCTION bump_data_version('trajectories');
