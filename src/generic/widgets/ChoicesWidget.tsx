import { Autocomplete, Box, FormHelperText, TextField } from '@mui/material';
import { useInput } from 'ra-core';
import { SelectInput } from 'ra-ui-materialui';
import { choiceLabel } from '../formModel';
import { keepText } from '../keepText';
import type { WidgetProps } from './widgetProps';

/**
 * Suggested values with their labels, and (with `custom`) any value typed by hand: a combo box
 * whose text is the value. `describe` says the value in words under it (a cron schedule).
 */
export function ChoicesWidget({
  field,
  widget,
  helperText,
  autoFocus,
  describe,
}: WidgetProps<'choices'> & { describe?: (value: string) => string }) {
  const {
    field: input,
    fieldState,
    isRequired,
  } = useInput({ source: field.name, parse: keepText });
  const value = typeof input.value === 'string' ? input.value : '';
  const error = fieldState.error?.message;
  const words = value.trim() && describe && !error ? describe(value) : null;
  const options = widget.choices.map((choice) => choice.value);
  const labelOf = (option: string) => {
    const label = choiceLabel(widget.choices, option);
    return label ? `${label} — ${option}` : option;
  };
  if (!widget.custom)
    return (
      <SelectInput
        source={field.name}
        label={field.label}
        choices={widget.choices.map((c) => ({ id: c.value, name: c.label }))}
        helperText={helperText}
        autoFocus={autoFocus}
        fullWidth
      />
    );
  return (
    <Box sx={{ width: '100%', mb: 1 }}>
      <Autocomplete
        freeSolo
        autoSelect={false}
        options={options}
        value={value}
        inputValue={value}
        onInputChange={(_event, text) => input.onChange(text)}
        onChange={(_event, chosen) => input.onChange(chosen ?? '')}
        getOptionLabel={(option) => option}
        renderOption={(props, option) => (
          <li {...props} key={option}>
            <Box>
              {choiceLabel(widget.choices, option)}
              <Box
                component="span"
                sx={{ ml: 1, fontFamily: 'monospace', color: 'text.secondary' }}
              >
                {option}
              </Box>
            </Box>
          </li>
        )}
        // All suggestions on opening; while typing, those the text matches (by label or value),
        // never the value already there, so a typed value leaves the page free to save.
        filterOptions={(all, state) => suggestionsFor(widget.choices, all, state.inputValue)}
        renderInput={(params) => (
          <TextField
            {...params}
            name={input.name}
            inputRef={input.ref}
            onBlur={input.onBlur}
            label={field.label}
            required={isRequired}
            autoFocus={autoFocus}
            error={Boolean(error)}
            helperText={error ?? (helperText || undefined)}
            slotProps={{
              htmlInput: {
                ...params.inputProps,
                spellCheck: false,
                style: { fontFamily: 'monospace' },
                'aria-describedby': words ? `${field.name}-words` : undefined,
              },
            }}
          />
        )}
        aria-label={field.label}
        title={labelOf(value)}
      />
      {words ? (
        <FormHelperText
          id={`${field.name}-words`}
          data-testid={`${field.name}-words`}
          sx={{ mx: 1.75, color: 'text.primary', fontWeight: 500 }}
        >
          {words}
        </FormHelperText>
      ) : null}
    </Box>
  );
}

/** The suggestions the list shows for what is typed. */
function suggestionsFor(
  choices: readonly { label: string; value: string }[],
  all: string[],
  typed: string,
): string[] {
  const text = typed.trim().toLowerCase();
  if (!text) return all;
  return all.filter((option) => {
    if (option === typed.trim()) return false;
    const label = choiceLabel(choices, option)?.toLowerCase() ?? '';
    return option.startsWith(text) || label.includes(text);
  });
}
