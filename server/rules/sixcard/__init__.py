"""6 Card Poker 1-2-5 (docs/rules/sixcard.md): a house-banked stud game with a sixth card or a 1-2-5 exchange."""
