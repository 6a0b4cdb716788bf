"use client";
// Draw a study: the form is previewed (draw and assignment shown), then saved as shown.
import { type FormEvent, startTransition, useActionState, useState } from "react";
import { FieldError, FormMessage, fieldProps } from "@/components/forms/field-error";
import { DataTable } from "@/components/tables/data-table";
import { shownText } from "@/lib/domain/text";
import { NO_ERRORS } from "@/lib/errors";
import { type DraftState, previewStudy, saveStudy } from "../actions";

const START: DraftState = { ...NO_ERRORS, draft: null };

type Labeller = { handle: string; name: string; role: string };

export function StudyForm({ labellers, defaultSeed }: { labellers: Labeller[]; defaultSeed: string }) {
  const [preview, previewAction, previewing] = useActionState(previewStudy, START);
  const [saved, saveAction, saving] = useActionState(saveStudy, START);
  // Any change after a preview hides it: what is saved must be what was shown.
  const [stale, setStale] = useState(false);
  const draft = stale ? null : preview.draft;
  const [last, setLast] = useState<"preview" | "save">("preview");
  const errors = last === "save" ? saved : preview;
  // Submitted by hand rather than through the form's action, which would reset the fields afterwards.
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const data = new FormData(e.currentTarget, submitter);
    setStale(false);
    setLast(submitter?.name === "save" ? "save" : "preview");
    startTransition(() => (submitter?.name === "save" ? saveAction : previewAction)(data));
  };
  return (
    <form onSubmit={submit} onChange={() => setStale(true)} className="study-form">
      <DesignFields errors={errors} defaultSeed={defaultSeed} />
      <AnnotatorFields errors={errors} labellers={labellers} />
      {preview.draft ? <StrataSizes draft={preview.draft} /> : null}
      <FormMessage errors={errors} />
      <p className="filter-actions">
        <button type="submit" disabled={previewing}>
          {previewing ? "Drawing…" : "Preview the draw"}
        </button>
        {draft && !draft.items.length ? (
          <span role="alert" className="error">
            The draw is empty: give a stratum a size above 0.
          </span>
        ) : null}
        {draft?.items.length ? (
          <button type="submit" name="save" value="1" disabled={saving}>
            {saving ? "Saving…" : `Save this study (${draft.items.length} items)`}
          </button>
        ) : null}
      </p>
      {draft ? <input type="hidden" name="digest" value={draft.digest} /> : null}
      {draft ? <DraftView draft={draft} /> : null}
    </form>
  );
}

type Errors = DraftState;

function NumberField(p: { name: string; label: string; min: number; max: number; value: number; errors: Errors }) {
  return (
    <div className="field">
      <label>
        {p.label}{" "}
        <input
          name={p.name}
          type="number"
          min={p.min}
          max={p.max}
          defaultValue={p.value}
          required
          {...fieldProps(p.errors, p.name)}
        />
      </label>
      <FieldError errors={p.errors} name={p.name} />
    </div>
  );
}

function DesignFields({ errors, defaultSeed }: { errors: Errors; defaultSeed: string }) {
  return (
    <fieldset>
      <legend>Design</legend>
      <div className="field">
        <label>
          Name <input name="name" required maxLength={200} {...fieldProps(errors, "name")} />
        </label>
        <FieldError errors={errors} name="name" />
      </div>
      <div className="field">
        <label>
          Seed <input name="seed" required defaultValue={defaultSeed} maxLength={200} {...fieldProps(errors, "seed")} />
        </label>
        <FieldError errors={errors} name="seed" />
      </div>
      <NumberField name="size" label="Items per stratum" min={0} max={10000} value={5} errors={errors} />
      <NumberField name="overlap" label="Annotators per item" min={1} max={20} value={1} errors={errors} />
      <label className="check">
        <input name="blind" type="checkbox" defaultChecked /> Blind: annotators see no judge verdict until they have
        labelled
      </label>
      <label className="check">
        <input name="blindElsewhere" type="checkbox" defaultChecked /> and elsewhere: while a researcher&apos;s label on
        an item is pending, they cannot open that trajectory outside their queue (timeline, list, compare, review)
      </label>
    </fieldset>
  );
}

function AnnotatorFields({ errors, labellers }: { errors: Errors; labellers: Labeller[] }) {
  return (
    <fieldset aria-describedby={errors.fields.annotators ? "annotators-error" : undefined}>
      <legend>Annotators</legend>
      <FieldError errors={errors} name="annotators" />
      {labellers.length ? (
        labellers.map((l) => (
          <label key={l.handle} className="check">
            <input type="checkbox" name="annotators" value={l.handle} /> {shownText(`${l.name} (${l.handle}`)},{" "}
            {l.role.toLowerCase()})
          </label>
        ))
      ) : (
        <p className="empty">Nobody can label yet: add annotators on the People page.</p>
      )}
    </fieldset>
  );
}

/** The size of each stratum of the previewed draw, to change before drawing again. */
function StrataSizes({ draft }: { draft: NonNullable<DraftState["draft"]> }) {
  return (
    <fieldset>
      <legend>Size per stratum (empty: the size above)</legend>
      <DataTable
        label="Size per stratum"
        rows={draft.strata}
        rowKey={(s) => s.stratum}
        columns={[
          { key: "stratum", label: "Stratum (benchmark | model | network | prompt)", cell: (s) => s.stratum },
          { key: "pool", label: "Trajectories", numeric: true, cell: (s) => s.pool },
          {
            key: "size",
            label: "Size",
            numeric: true,
            cell: (s) => (
              <>
                <input type="hidden" name="stratum" value={s.stratum} />
                <input
                  name="stratumSize"
                  type="number"
                  min={0}
                  max={10000}
                  aria-label={`size of ${s.stratum}`}
                  defaultValue={draft.design.sizes[s.stratum] ?? ""}
                  placeholder={String(draft.design.size)}
                />
              </>
            ),
          },
        ]}
      />
    </fieldset>
  );
}

function DraftView({ draft }: { draft: NonNullable<DraftState["draft"]> }) {
  return (
    <section aria-label="Preview">
      <h2>
        Preview: {draft.items.length} items, seed “{draft.design.seed}”
      </h2>
      <DataTable
        label="Drawn per stratum"
        rows={draft.strata}
        rowKey={(s) => s.stratum}
        columns={[
          { key: "stratum", label: "Stratum", cell: (s) => s.stratum },
          { key: "pool", label: "Trajectories", numeric: true, cell: (s) => s.pool },
          { key: "drawn", label: "Drawn", numeric: true, cell: (s) => s.drawn },
        ]}
      />
      <h3>Assignment ({draft.design.overlap} per item)</h3>
      <ul>
        {draft.load.map((l) => (
          <li key={l.handle}>
            {shownText(l.handle)}: {l.items} items
          </li>
        ))}
      </ul>
      <details>
        <summary>Items in queue order</summary>
        <ol start={0}>
          {draft.items.map((i) => (
            <li key={i.trajectoryId}>
              <a href={`/trajectories/${i.trajectoryId}`}>#{i.trajectoryId}</a> {i.stratum} → {i.annotators.join(", ")}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}
