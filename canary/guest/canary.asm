; virtgate canary guest: one boot sector that proves a VMI booted *this run*, not some run.
;
; The BIOS (SeaBIOS, what KubeVirt gives a VMI without EFI) loads this sector to 0000:7C00 in
; real mode and jumps here. It reads the machine's UUID from QEMU's firmware configuration
; device (fw_cfg), prints it on the first serial port (COM1, I/O 0x3F8: the ttyS0 that KubeVirt's
; console and guest-console-log read) as
;
;     VIRTGATE-CANARY-OK <32 lowercase hex digits>
;
; (canary/guest/marker.ts), then halts for good with interrupts off. Only port I/O after boot,
; no BIOS service, so the same bytes behave alike under TCG and KVM.
;
; Why the UUID is the nonce: the canary gives each VMI a fresh random
; spec.domain.firmware.uuid. KubeVirt v1.9 writes it only as the libvirt domain's
; <sysinfo type='smbios'><system><entry name='uuid'> (pkg/virt-launcher/virtwrap/converter/
; compute/sysinfo.go) and sets no <uuid> of its own (DomainSpec.UUID stays empty); libvirt then
; takes the domain's UUID from that sysinfo entry and starts QEMU with `-uuid <it>` (checked with
; libvirt 11.3, virt-launcher's: `virsh domxml-to-native qemu-argv` of a domain with only the
; sysinfo entry gives `-uuid` and `-smbios type=1,uuid=` both with it, as the command lines of
; real VMIs show). QEMU stores it as 16 bytes in the string's order and serves them
; unchanged as fw_cfg item 0x0002, FW_CFG_UUID (hw/nvram/fw_cfg.c). SMBIOS type 1 would give the
; first three fields byte-swapped; fw_cfg does not, so the hex below is the UUID string without
; its dashes (canary/guest/guest.test.ts checks this against QEMU with random UUIDs).
;
; fw_cfg on x86: write a 16-bit item key to the selector port 0x510, then read the item's bytes
; one by one from the data port 0x511 (each read moves to the next byte). Item 0x0000 is the
; signature "QEMU"; where it is absent (no fw_cfg: not QEMU, or a port that reads 0xFF) the guest
; prints VIRTGATE-CANARY-NO-FWCFG instead, which never passes as a marker.
;
; Build: nasm -f bin -o canary.bin canary.asm   (exactly 512 bytes; see Dockerfile.canary-disk)

bits 16
org 0x7c00

COM1    equ 0x3f8               ; base I/O port of the 16550 UART
THR     equ COM1 + 0            ; transmit holding register (DLAB=0) / divisor latch low (DLAB=1)
IER     equ COM1 + 1            ; interrupt enable (DLAB=0) / divisor latch high (DLAB=1)
FCR     equ COM1 + 2            ; FIFO control
LCR     equ COM1 + 3            ; line control
MCR     equ COM1 + 4            ; modem control
LSR     equ COM1 + 5            ; line status; bit 5 = transmit holding register empty

FW_CFG_SELECTOR  equ 0x510      ; 16-bit write: which item to read
FW_CFG_DATA      equ 0x511      ; 8-bit reads: the selected item's bytes, in order
FW_CFG_SIGNATURE equ 0x0000     ; "QEMU"
FW_CFG_UUID      equ 0x0002     ; the 16 bytes of -uuid

start:
        cli
        xor     ax, ax
        mov     ds, ax          ; lodsb reads DS:SI; the strings live in segment 0
        mov     ss, ax
        mov     sp, 0x7c00      ; a stack below this sector (putc is called)
        cld                     ; lodsb walks forward

        ; --- UART: 115200 baud, 8 data bits, no parity, 1 stop bit, FIFOs on, polled ---------
        mov     dx, IER
        xor     al, al
        out     dx, al          ; no UART interrupts: we poll
        mov     dx, LCR
        mov     al, 0x80
        out     dx, al          ; DLAB=1: THR/IER become the baud divisor latch
        mov     dx, THR
        mov     al, 1
        out     dx, al          ; divisor 1 = 115200 baud (low byte)
        mov     dx, IER
        xor     al, al
        out     dx, al          ; (high byte)
        mov     dx, LCR
        mov     al, 0x03
        out     dx, al          ; DLAB=0, 8N1
        mov     dx, FCR
        mov     al, 0xc7
        out     dx, al          ; enable and clear both FIFOs, 14-byte trigger
        mov     dx, MCR
        mov     al, 0x03
        out     dx, al          ; DTR and RTS asserted

        ; --- fw_cfg present? its signature item must read "QEMU" ------------------------------
        mov     dx, FW_CFG_SELECTOR
        mov     ax, FW_CFG_SIGNATURE
        out     dx, ax
        mov     dx, FW_CFG_DATA
        mov     si, signature
        mov     cx, 4
.sig:
        in      al, dx
        cmp     al, [si]
        jne     no_fw_cfg
        inc     si
        loop    .sig

        ; --- the marker: prefix, the UUID's 16 bytes as 32 hex digits, CR LF ----------------
        mov     si, marker
        call    puts
        mov     dx, FW_CFG_SELECTOR
        mov     ax, FW_CFG_UUID
        out     dx, ax
        mov     cx, 16
.byte:
        mov     dx, FW_CFG_DATA
        in      al, dx
        mov     bl, al
        shr     al, 4
        call    puthex          ; high nibble first: the digits read as the UUID string does
        mov     al, bl
        call    puthex
        loop    .byte
        mov     si, crlf
        call    puts
        jmp     halt

no_fw_cfg:
        mov     si, no_fw_cfg_line
        call    puts

        ; --- done: stop the CPU for good (cli, so only an NMI could wake it; then halt again) --
halt:
        cli
        hlt
        jmp     halt

; puthex: writes the low nibble of AL as one lowercase hex digit.
puthex:
        and     al, 0x0f
        add     al, '0'
        cmp     al, '9'
        jbe     putc
        add     al, 'a' - '9' - 1
        ; falls through to putc

; putc: writes AL to COM1 once the transmitter can take a byte (a missing UART reads 0xFF, so
; this never spins forever). Keeps BX, CX, SI.
putc:
        mov     ah, al
        mov     dx, LSR
.wait:
        in      al, dx
        test    al, 0x20
        jz      .wait
        mov     dx, THR
        mov     al, ah
        out     dx, al
        ret

; puts: writes the NUL-terminated string at DS:SI.
puts:
        lodsb
        test    al, al
        jz      .done
        call    putc
        jmp     puts
.done:
        ret

signature:
        db      "QEMU"
        ; CR LF first: whatever the console printed before (nothing, or firmware text) ends its
        ; line, so the marker always stands alone on a line of its own.
marker:
        db      13, 10, "VIRTGATE-CANARY-OK ", 0
crlf:
        db      13, 10, 0
no_fw_cfg_line:
        db      13, 10, "VIRTGATE-CANARY-NO-FWCFG", 13, 10, 0

        times   510 - ($ - $$) db 0     ; pad to the boot signature (nasm fails if code is too long)
        dw      0xaa55                  ; boot signature: the BIOS boots only a sector ending 55 AA
