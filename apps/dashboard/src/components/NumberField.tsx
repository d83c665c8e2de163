interface NumberFieldProps {
  /** The form value's name; also names the element for tests (data-testid="field-<name>"). */
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The field's one message (the form's own check, or the service's), shown right under it. */
  error?: string;
  hint?: string;
  min?: number;
  max?: number;
}

export function NumberField({ name, label, value, onChange, error, hint, min, max }: NumberFieldProps) {
  const id = `field-${name}`;
  const describedBy = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`} data-testid={`${id}-container`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        data-testid={id}
        type="number"
        inputMode="numeric"
        value={value}
        min={min}
        max={max}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && (
        <small id={`${id}-hint`} className="field-hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error" data-testid={`${id}-error`}>
          {error}
        </small>
      )}
    </div>
  );
}
