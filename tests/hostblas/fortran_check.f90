! A Fortran program through the Fortran BLAS symbols of liboptune_blas.so.3
! (gfortran's convention, no interface blocks: as legacy code calls BLAS):
! SGEMM and DGEMM with every transpose at odd sizes against a double
! reference, beta = 0 over NaN, DDOT, ZDOTC (a COMPLEX*16 function result),
! ISAMAX, SNRM2, SROTG, and an argument error reaching this program's own
! XERBLA. Stops with status 1 on the first failed check.
module checks
  implicit none
  integer :: last_info = 0
  character(len=6) :: last_name = ' '
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print *, 'FAILED: ', what
      error stop 1
    end if
  end subroutine
end module

subroutine xerbla(srname, info)
  use checks
  character(len=*), intent(in) :: srname
  integer, intent(in) :: info
  last_name = srname(1:min(6, len(srname)))
  last_info = info
end subroutine

program fortran_check
  use checks
  use, intrinsic :: ieee_arithmetic
  implicit none
  double precision, external :: ddot
  complex*16, external :: zdotc
  real, external :: snrm2
  integer, external :: isamax
  integer :: sizes(3, 4), s, ta, tb
  character(len=1), parameter :: tr(2) = ['N', 'T']
  double precision :: x(7), y(7), d
  complex*16 :: zx(3), zy(3), zr, zwant
  real :: sx(5), sa, sb, c, sn, c1(1), a1(1), b1(1)
  integer :: i

  sizes = reshape([1, 1, 1, 7, 5, 3, 17, 9, 33, 40, 41, 70], [3, 4])
  do s = 1, 4
    do ta = 1, 2
      do tb = 1, 2
        call gemm_case(tr(ta), tr(tb), sizes(1, s), sizes(2, s), sizes(3, s))
      end do
    end do
  end do

  do i = 1, 7
    x(i) = i * 0.5d0
    y(i) = 8 - i
  end do
  d = ddot(4, x, 2, y, -2)   ! x(1), x(3), x(5), x(7) with y(7), y(5), y(3), y(1)
  call check(abs(d - (0.5d0 * 1 + 1.5d0 * 3 + 2.5d0 * 5 + 3.5d0 * 7)) < 1d-13, 'ddot, incy = -2')

  zx = [(1d0, 2d0), (3d0, -1d0), (0d0, 1d0)]
  zy = [(0.5d0, -1d0), (2d0, 4d0), (1d0, 1d0)]
  zr = zdotc(3, zx, 1, zy, 1)
  zwant = sum(conjg(zx) * zy)
  call check(abs(zr - zwant) < 1d-14, 'zdotc result')

  sx = [1.0, -7.0, 3.0, 7.0, -2.0]
  call check(isamax(5, sx, 1) == 2, 'isamax: the first largest')
  call check(isamax(0, sx, 1) == 0, 'isamax: n = 0 gives 0')
  call check(abs(snrm2(2, [3.0, 4.0], 1) - 5.0) < 1e-6, 'snrm2')
  ! As the reference (LAPACK 3.10 on): a negative increment from the far end,
  ! 0 as n times the first element.
  call check(abs(snrm2(3, [3.0, 4.0, 12.0], -1) - 13.0) < 1e-5, 'snrm2, incx = -1')
  call check(abs(snrm2(3, [3.0, 4.0, 12.0], 0) - sqrt(27.0)) < 1e-5, 'snrm2, incx = 0')
  sa = 3.0
  sb = 4.0
  call srotg(sa, sb, c, sn)
  call check(abs(sa - 5.0) < 1e-6 .and. abs(c - 0.6) < 1e-6 .and. abs(sn - 0.8) < 1e-6, 'srotg')

  ! An argument error: SGEMM's TRANSA is argument 1, LDC argument 13.
  c1 = 5.0
  call sgemm('X', 'N', 1, 1, 1, 1.0, a1, 1, b1, 1, 0.0, c1, 1)
  call check(last_name == 'SGEMM ' .and. last_info == 1 .and. c1(1) == 5.0, 'xerbla for TRANSA')
  call sgemm('N', 'N', 2, 1, 1, 1.0, a1, 2, b1, 1, 0.0, c1, 1)
  call check(last_name == 'SGEMM ' .and. last_info == 13, 'xerbla for LDC')
  print *, 'fortran_check: all checks passed'

contains

  subroutine gemm_case(ta, tb, m, n, k)
    character(len=1), intent(in) :: ta, tb
    integer, intent(in) :: m, n, k
    double precision, allocatable :: a(:, :), b(:, :), cd(:, :), want(:, :), opa(:, :), opb(:, :)
    real, allocatable :: as(:, :), bs(:, :), cs(:, :)
    integer :: lda, ldb, ldc, ar, ac, br, bc
    double precision :: alpha, beta, tol
    logical :: beta0
    ar = merge(m, k, ta == 'N')
    ac = merge(k, m, ta == 'N')
    br = merge(k, n, tb == 'N')
    bc = merge(n, k, tb == 'N')
    lda = ar + 1
    ldb = br + 2
    ldc = m + 3
    allocate(a(lda, ac), b(ldb, bc), cd(ldc, n), want(ldc, n), as(lda, ac), bs(ldb, bc), cs(ldc, n))
    call random_number(a)
    call random_number(b)
    call random_number(cd)
    a = a - 0.5d0
    b = b - 0.5d0
    as = real(a)
    bs = real(b)
    beta0 = mod(m + n, 2) == 1
    alpha = 0.75d0
    beta = merge(0d0, -1.25d0, beta0)
    if (beta0) cd = ieee_value(1d0, ieee_quiet_nan)
    cs = real(cd)
    ! The reference, in double from the single-precision inputs.
    opa = dble(as(1:ar, 1:ac))
    opb = dble(bs(1:br, 1:bc))
    if (ta /= 'N') opa = transpose(opa)
    if (tb /= 'N') opb = transpose(opb)
    want = cd
    want(1:m, :) = alpha * matmul(opa, opb)
    if (.not. beta0) want(1:m, :) = want(1:m, :) + beta * dble(cs(1:m, :))
    call sgemm(ta, tb, m, n, k, real(alpha), as, lda, bs, ldb, real(beta), cs, ldc)
    tol = 1d-5 * (k + 1)
    call check(maxval(abs(dble(cs(1:m, :)) - want(1:m, :))) <= tol, 'sgemm ' // ta // tb)
    ! DGEMM on the double inputs.
    opa = a(1:ar, 1:ac)
    opb = b(1:br, 1:bc)
    if (ta /= 'N') opa = transpose(opa)
    if (tb /= 'N') opb = transpose(opb)
    want(1:m, :) = alpha * matmul(opa, opb)
    if (.not. beta0) want(1:m, :) = want(1:m, :) + beta * cd(1:m, :)
    call dgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, cd, ldc)
    call check(maxval(abs(cd(1:m, :) - want(1:m, :))) <= 1d-13 * (k + 1), 'dgemm ' // ta // tb)
  end subroutine

end program
