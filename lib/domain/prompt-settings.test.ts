// A prompt version's settings from the form: what was chosen, the field at fault named, stored ones read.
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, sameSettings, settingsFromForm, settingsText, storedSettings } from "./prompt-settings";

const form = (fields: Record<string, string>) => (name: string) => fields[name] ?? null;

describe("prompt settings", () => {
  it("reads the form: an unticked box sends no reasoning, a blank length cuts only to fit", () => {
    expect(settingsFromForm(form({ outputChars: "", cohort: "model" }))).toEqual({
      reasoning: false,
      outputChars: null,
      cohort: "model",
    });
    expect(settingsFromForm(form({ reasoning: "on", outputChars: " 4000 ", cohort: "off" }))).toEqual({
      reasoning: true,
      outputChars: 4000,
      cohort: "off",
    });
  });

  it("names the field at fault", () => {
    expect(settingsFromForm(form({ outputChars: "12.5" }))).toEqual({
      field: "outputChars",
      error: "a whole number of characters from 200, or blank",
    });
    expect(settingsFromForm(form({ outputChars: "100" }))).toMatchObject({ field: "outputChars" });
    expect(settingsFromForm(form({ cohort: "everyone" }))).toMatchObject({ field: "cohort" });
  });

  it("reads a version saved before settings as the defaults, and says them in words", () => {
    expect(storedSettings({})).toEqual(DEFAULT_SETTINGS);
    expect(storedSettings({ cohort: "nonsense" })).toEqual(DEFAULT_SETTINGS);
    expect(sameSettings(storedSettings(null), DEFAULT_SETTINGS)).toBe(true);
    expect(settingsText({ reasoning: false, outputChars: 2000, cohort: "all" })).toBe(
      "without the agent's reasoning; outputs cut to 2,000 characters; " +
        "the runs of one task by every model in one request",
    );
  });
});
