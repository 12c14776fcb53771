"""The lowered program (the IR): what both emitters read. See docs/native-plan.md."""
