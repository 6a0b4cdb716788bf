DROP TRIGGER IF EXISTS task_record_data_version ON task_record;
CREATE CONSTRAINT TRIGGER task_record_data_version AFTER INSERT OR DELETE OR UPDATE ON task_record DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version('trajectories');
