DROP TRIGGER IF EXISTS frozen_report_data_version ON frozen_report;
CREATE CONSTRAINT TRIGGER frozen_report_data_version AFTER INSERT OR DELETE OR UPDATE ON frozen_report DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version('reports');
