DROP TRIGGER IF EXISTS panel_member_data_version ON panel_member;
CREATE CONSTRAINT TRIGGER panel_member_data_version AFTER INSERT OR DELETE OR UPDATE ON panel_member DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version('votes');
