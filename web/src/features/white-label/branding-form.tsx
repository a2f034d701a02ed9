import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ImagePlus, Trash2 } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import { FieldError, Label } from "../../components/ui/label";
import { Alert } from "../../components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import {
  brandingRules,
  checkLogoUpload,
  validateBranding,
  type Branding,
  type BrandingInput,
  type WhiteLabelSettings,
} from "../../lib/domain";
import { BrandingPreview } from "./branding-preview";
import { removeLogo, saveBranding, uploadLogo, whiteLabelQueryOptions, WhiteLabelError } from "./api/white-label";

const rules = brandingRules();

type Field = keyof BrandingInput;
type Errors = Partial<Record<Field, string>>;

/** The first message of each failing field, from `domain` (wasm here, the server's 422 alike). */
function byField(list: { field: string; message: string }[]): Errors {
  const errors: Errors = {};
  for (const { field, message } of list) errors[field as Field] ??= message;
  return errors;
}

function formOf(branding: Branding | null): BrandingInput {
  return {
    companyName: branding?.companyName ?? "",
    primaryColor: branding?.primaryColor ?? rules.defaultPrimary,
    secondaryColor: branding?.secondaryColor ?? rules.defaultSecondary,
    fontFamily: branding?.fontFamily ?? rules.defaultFont,
    contactEmail: branding?.contactEmail ?? "",
    contactPhone: branding?.contactPhone ?? "",
    websiteUrl: branding?.websiteUrl ?? "",
  };
}

/** An object URL for a chosen file, revoked when the file changes or the form goes. */
function useObjectUrl(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  return url;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;
const selectClass =
  "flex h-10 w-full rounded-lg border border-border bg-input px-3 py-2 text-base text-input-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-red-500";

/**
 * The branding settings with a live preview. Every change (fields, a new logo, removing the logo)
 * is applied by "Save branding": the settings first, then the logo, which the server stores only
 * for a saved brand. Fields are checked by `domain` before anything is sent.
 */
export function BrandingForm({ settings }: { settings: WhiteLabelSettings }) {
  const id = useId();
  const qc = useQueryClient();
  const [form, setForm] = useState<BrandingInput>(() => formOf(settings.branding));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [logoFile, setLogoFile] = useState<File | null>(null);
  const [logoRemoved, setLogoRemoved] = useState(false);
  const [logoError, setLogoError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const pendingLogo = useObjectUrl(logoFile);

  const live = byField(validateBranding(form));
  const errors: Errors = submitted ? { ...serverErrors, ...live } : serverErrors;
  const colour = (field: "primaryColor" | "secondaryColor", fallback: string) =>
    live[field] || !form[field].trim() ? fallback : form[field].trim();
  const preview: Branding = {
    companyName: form.companyName,
    primaryColor: colour("primaryColor", rules.defaultPrimary),
    secondaryColor: colour("secondaryColor", rules.defaultSecondary),
    fontFamily: live.fontFamily || !form.fontFamily ? rules.defaultFont : form.fontFamily,
    contactEmail: form.contactEmail.trim() || undefined,
    contactPhone: form.contactPhone.trim() || undefined,
    websiteUrl: form.websiteUrl.trim() || undefined,
  };
  const savedLogo = settings.branding?.logoUrl ?? null;
  const shownLogo = logoFile ? pendingLogo : logoRemoved ? null : savedLogo;

  const update = (patch: Partial<BrandingInput>) => {
    setForm((f) => ({ ...f, ...patch }));
    setServerErrors((e) => {
      const next = { ...e };
      for (const key of Object.keys(patch)) delete next[key as Field];
      return next;
    });
    setSaved(false);
  };

  const chooseLogo = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    const problem = checkLogoUpload(file.type, file.size);
    setSaved(false);
    if (problem) {
      setLogoError(problem);
      e.target.value = "";
      return;
    }
    setLogoError(null);
    setLogoFile(file);
    setLogoRemoved(false);
  };

  const dropLogo = () => {
    setLogoFile(null);
    setLogoRemoved(savedLogo !== null);
    setLogoError(null);
    setSaved(false);
    if (fileInput.current) fileInput.current.value = "";
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setFailure(null);
    setSaved(false);
    if (Object.keys(live).length > 0) {
      const first = Object.keys(live)[0];
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setSaving(true);
    try {
      let next = await saveBranding(form);
      qc.setQueryData(whiteLabelQueryOptions().queryKey, next);
      if (logoFile) {
        try {
          next = await uploadLogo(logoFile);
          setLogoFile(null);
          if (fileInput.current) fileInput.current.value = "";
        } catch (err) {
          setLogoError(err instanceof Error ? err.message : "The logo could not be uploaded. Please try again.");
          return;
        }
      } else if (logoRemoved) {
        next = await removeLogo();
        setLogoRemoved(false);
      }
      qc.setQueryData(whiteLabelQueryOptions().queryKey, next);
      setForm(formOf(next.branding));
      setServerErrors({});
      setSubmitted(false);
      setSaved(true);
    } catch (err) {
      if (err instanceof WhiteLabelError && err.fields.length > 0) setServerErrors(byField(err.fields));
      setFailure(err instanceof Error ? err.message : "Your branding could not be saved. Please try again.");
    } finally {
      setSaving(false);
    }
  };

  const described = (field: Field, hint?: string) =>
    [errors[field] ? `${id}-${field}-error` : null, hint].filter(Boolean).join(" ") || undefined;
  const text = (field: Field, label: string, type = "text", optional = true) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`${id}-${field}`}>
        {label}
        {optional && <span className="font-normal text-muted-foreground"> (optional)</span>}
      </Label>
      <Input
        id={`${id}-${field}`}
        type={type}
        value={form[field]}
        required={!optional}
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={described(field)}
        onChange={(e) => update({ [field]: e.target.value })}
      />
      <FieldError id={`${id}-${field}-error`}>{errors[field]}</FieldError>
    </div>
  );
  const colourField = (field: "primaryColor" | "secondaryColor", label: string, fallback: string) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`${id}-${field}`}>{label}</Label>
      <div className="flex gap-2">
        <input
          type="color"
          aria-label={`${label} picker`}
          value={colour(field, fallback).toLowerCase()}
          onChange={(e) => update({ [field]: e.target.value.toUpperCase() })}
          className="h-10 w-14 shrink-0 cursor-pointer rounded-lg border border-border bg-input p-1"
        />
        <Input
          id={`${id}-${field}`}
          value={form[field]}
          spellCheck={false}
          autoComplete="off"
          className="font-mono"
          aria-invalid={errors[field] ? true : undefined}
          aria-describedby={described(field, `${id}-colour-hint`)}
          onChange={(e) => update({ [field]: e.target.value })}
        />
      </div>
      <FieldError id={`${id}-${field}-error`}>{errors[field]}</FieldError>
    </div>
  );

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
      <Card>
        <CardHeader>
          <CardTitle as="h3">Brand settings</CardTitle>
          <CardDescription>
            {settings.accountWhiteLabel
              ? "Every report of your account carries this brand instead of Sitelens."
              : "Your Premium reports carry this brand instead of Sitelens. With the Agency or Enterprise plan, every report does."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={(e) => void onSubmit(e)} className="grid gap-5" aria-describedby={`${id}-status`}>
            {text("companyName", "Company name", "text", false)}
            <div className="grid gap-5 sm:grid-cols-2">
              {colourField("primaryColor", "Primary colour", rules.defaultPrimary)}
              {colourField("secondaryColor", "Secondary colour", rules.defaultSecondary)}
            </div>
            <p id={`${id}-colour-hint`} className="-mt-3 text-sm text-muted-foreground">
              A # and six hex digits, like {rules.defaultPrimary}; empty takes Sitelens' default.
            </p>
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-fontFamily`}>Font</Label>
              <select
                id={`${id}-fontFamily`}
                className={selectClass}
                value={form.fontFamily}
                aria-invalid={errors.fontFamily ? true : undefined}
                aria-describedby={described("fontFamily")}
                onChange={(e) => update({ fontFamily: e.target.value })}
              >
                {rules.fonts.map((f) => (
                  <option key={f.value} value={f.value} style={{ fontFamily: f.value }}>
                    {f.label}
                  </option>
                ))}
              </select>
              <FieldError id={`${id}-fontFamily-error`}>{errors.fontFamily}</FieldError>
            </div>
            {text("contactEmail", "Contact e-mail", "email")}
            <div className="grid gap-5 sm:grid-cols-2">
              {text("contactPhone", "Contact phone", "tel")}
              {text("websiteUrl", "Website", "url")}
            </div>
            <fieldset className="grid gap-2">
              <legend className="text-sm font-medium">Logo</legend>
              <p id={`${id}-logo-hint`} className="text-sm text-muted-foreground">
                PNG, JPEG or WebP, at most {megabytes(rules.logoMaxBytes)}. It is shown at most {rules.logoMaxWidth} × {rules.logoMaxHeight}{" "}
                pixels.
              </p>
              <div className="flex flex-wrap items-center gap-2">
                <Label
                  htmlFor={`${id}-logo`}
                  className="inline-flex h-10 cursor-pointer items-center gap-2 rounded-lg border border-border bg-card px-4 text-sm font-semibold hover:bg-muted focus-within:ring-2 focus-within:ring-ring"
                >
                  <ImagePlus aria-hidden="true" className="size-4" />
                  {shownLogo ? "Replace logo" : "Choose logo"}
                  <input
                    ref={fileInput}
                    id={`${id}-logo`}
                    type="file"
                    accept={rules.logoTypes.join(",")}
                    className="sr-only"
                    aria-invalid={logoError ? true : undefined}
                    aria-describedby={[`${id}-logo-hint`, logoError ? `${id}-logo-error` : null].filter(Boolean).join(" ")}
                    onChange={chooseLogo}
                  />
                </Label>
                {shownLogo && (
                  <Button type="button" variant="ghost" onClick={dropLogo}>
                    <Trash2 aria-hidden="true" /> Remove logo
                  </Button>
                )}
                {logoFile && <span className="text-sm text-muted-foreground">{logoFile.name}: saved with the settings</span>}
                {logoRemoved && <span className="text-sm text-muted-foreground">The logo is removed when you save</span>}
              </div>
              <div aria-live="polite">
                <FieldError id={`${id}-logo-error`}>{logoError ?? undefined}</FieldError>
              </div>
            </fieldset>
            <div id={`${id}-status`} aria-live="polite" className="grid gap-3">
              {submitted && Object.keys(live).length > 0 && (
                <Alert variant="destructive">
                  {Object.keys(live).length === 1
                    ? "Please correct the highlighted field."
                    : `Please correct the ${Object.keys(live).length} highlighted fields.`}
                </Alert>
              )}
              {failure && <Alert variant="destructive">{failure}</Alert>}
              {saved && <Alert variant="success">Your branding is saved.</Alert>}
            </div>
            <div>
              <Button type="submit" disabled={saving}>
                {saving ? "Saving…" : "Save branding"}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      <div className="lg:sticky lg:top-24 lg:self-start">
        <h3 className="mb-3 text-lg font-semibold">Preview</h3>
        <BrandingPreview branding={preview} logoSrc={shownLogo} />
      </div>
    </div>
  );
}
