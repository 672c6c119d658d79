import { type ComponentProps, type MouseEvent, useState } from "react";
import { cn } from "#web/lib/cn";

type SwitchProps = Omit<ComponentProps<"button">, "value" | "defaultChecked"> & {
  checked?: boolean;
  defaultChecked?: boolean;
  onCheckedChange?: (checked: boolean) => void;
  required?: boolean;
  value?: string;
};

/**
 * An on/off control (role "switch"); name it with a `<Label htmlFor>` pointing at its `id`. A button
 * that Space, Enter or a press toggles (WAI-ARIA's switch), written here rather than taken from
 * Radix so the story page that draws one loads no more of Radix for it.
 */
export function Switch({
  className,
  checked: controlled,
  defaultChecked = false,
  onCheckedChange,
  required,
  disabled,
  value = "on",
  onClick,
  ...props
}: SwitchProps) {
  const [uncontrolled, setUncontrolled] = useState(defaultChecked);
  const checked = controlled ?? uncontrolled;
  const state = checked ? "checked" : "unchecked";
  const dataDisabled = disabled ? "" : undefined;
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-required={required}
      data-state={state}
      data-disabled={dataDisabled}
      disabled={disabled}
      value={value}
      className={cn(
        "inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors disabled:cursor-not-allowed disabled:opacity-60 data-[state=checked]:bg-primary data-[state=unchecked]:bg-input",
        className,
      )}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        onClick?.(event);
        if (event.defaultPrevented) return;
        if (controlled === undefined) setUncontrolled(!checked);
        onCheckedChange?.(!checked);
      }}
      {...props}
    >
      <span
        data-state={state}
        data-disabled={dataDisabled}
        className="pointer-events-none block size-5 rounded-full bg-background shadow-sm transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0 motion-reduce:transition-none"
      />
    </button>
  );
}
