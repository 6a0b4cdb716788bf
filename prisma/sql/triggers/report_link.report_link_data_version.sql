DROP TRIGGER IF EXISTS report_link_data_version ON report_link;
CREATE CONSTRAINT TRIGGER report_link_data_version AFTER INSERT OR DELETE OR UPDATE ON report_link DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version('reports');
