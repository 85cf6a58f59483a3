/** A labelled drop-down of a form: `choices` maps each value to what the user reads. */
export function Choice<V extends string>({ label, name, value, choices, onChoose }: { label: string; name: string; value: V; choices: Readonly<Record<V, string>>; onChoose: (value: V) => void }) {
  const options = Object.entries(choices) as [V, string][];
  return (
    <label>
      {label}
      <select name={name} onChange={(event) => onChoose((event.currentTarget as HTMLSelectElement).value as V)}>
        {options.map(([option, text]) => <option value={option} selected={option === value}>{text}</option>)}
      </select>
    </label>
  );
}
