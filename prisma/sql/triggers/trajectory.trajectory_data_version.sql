DROP TRIGGER IF EXISTS trajectory_data_version ON trajectory;
CREATE CONSTRAINT TRIGGER trajectory_data_version AFTER INSERT OR DELETE ON trajectory DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version('trajectories');
