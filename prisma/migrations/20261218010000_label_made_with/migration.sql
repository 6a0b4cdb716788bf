-- How a label and a gold label were made: "form" (a person's form in the app, which starts with
-- nothing chosen), "import" (a file, from the Import page or the command line) or "api" (a file
-- pushed through the API). Null: made before this was recorded (a form then opened with "not
-- attempted" already chosen, so such a label's "not attempted" may not have been chosen).
ALTER TABLE "label" ADD COLUMN "madeWith" TEXT;
ALTER TABLE "label" ADD CONSTRAINT "label_madeWith_check" CHECK ("madeWith" IN ('form', 'import', 'api'));
ALTER TABLE "gold_label" ADD COLUMN "madeWith" TEXT;
ALTER TABLE "gold_label" ADD CONSTRAINT "gold_label_madeWith_check" CHECK ("madeWith" IN ('form', 'import', 'api'));
