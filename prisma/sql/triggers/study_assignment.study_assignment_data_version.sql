DROP TRIGGER IF EXISTS study_assignment_data_version ON study_assignment;
CREATE CONSTRAINT TRIGGER study_assignment_data_version AFTER INSERT OR DELETE OR UPDATE ON study_assignment DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version('studies');
