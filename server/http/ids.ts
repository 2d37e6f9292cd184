/** Path ids are positive integers in plain digits: `0x1`, `1e0`, `01` or ` 1` name nobody. */
export const ID_PATTERN = /^[1-9][0-9]{0,14}$/;
