/** An error's text for the chat model: what went wrong, and what to do next. */
export interface ErrorText {
  message: string;
  recovery: string;
}
