// A number box's limits said in the page's words and language: the browser's own message for a value out of
// range is its own wording, in the browser's language ("Value must be 10."), whatever language the page speaks.
import { t } from "./i18n.js";

/** Why ``input``'s value is refused (its min, max and step 1), or "": the sentence the browser shows on submit. */
export function limitsSentence(input) {
  const low = input.min === "" ? null : Number(input.min);
  const high = input.max === "" ? null : Number(input.max);
  const v = Number(input.value);
  const fits = input.value !== "" && Number.isInteger(v) && (low === null || v >= low) && (high === null || v <= high);
  if (fits || (input.value === "" && !input.required)) return "";
  if (low !== null && low === high) return t("Enter {low}: it is the only amount possible now.", { low });
  if (low !== null && high !== null) return t("Enter a whole number from {low} to {high}.", { low, high });
  if (low !== null) return t("Enter a whole number of {low} or more.", { low });
  return t("Enter a whole number.");
}

/** Keep ``input``'s refusal in the page's words as it is typed in (a button that sets the value sends an
 * "input" event). Returns ``input``. */
export function ownLimits(input) {
  const explain = () => input.setCustomValidity(limitsSentence(input));
  input.addEventListener("input", explain);
  explain();
  return input;
}
