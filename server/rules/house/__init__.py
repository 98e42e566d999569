"""What the house-banked games (Caribbean Stud, 6 Card Poker) share: the betting round's messages and rules."""
