//! Diplomacy's own masters' commands, one file each: PROCESS and PREVIEW of an adjudication,
//! CORRECT (WM D.VIII), AGREE (WM IX(5)) and REFUSE (Maharajiad X(2)) of a proposal, DECLARE
//! DRAW (Agora BT9), WINNERS (Agora BT3), VETO ABBREVIATIONS (WM D.III(1)), AMEND a regulation
//! (Agora BT2) and CONFIRM PROPOSAL (Agora BT8). `src/games` matches the command and
//! writes its audit row, as for the office commands every kind has (`engine::office`).

pub mod agree;
pub mod amend;
pub mod confirm;
pub mod contestants;
pub mod correct;
pub mod draw;
pub mod preview;
pub mod process;
pub mod refuse;
pub mod veto;
pub mod winners;
