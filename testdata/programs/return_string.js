return "plain text, not JSON-quoted";
