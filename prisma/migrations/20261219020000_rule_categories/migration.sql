-- A rule names any category of the study (issue 64): the category must be defined when the rule is
-- written (checked by the app, which names it), no longer one of the four written here.
ALTER TABLE "rule" DROP CONSTRAINT "rule_category_check";
