DROP TRIGGER IF EXISTS rule_scan_pending_data_version ON rule_scan_pending;
CREATE CONSTRAINT TRIGGER rule_scan_pending_data_version AFTER INSERT OR DELETE OR UPDATE ON rule_scan_pending DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version('rule_hits');
